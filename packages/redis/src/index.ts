export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisClient,
  type RedisConnectionOptions,
} from './connection/redisConnection.js';
export {
  RedisSession,
  type RedisSessionOptions,
  type SaveOptions,
  type VersionedState,
} from './session/redisSession.js';
