export {
  REDIS_INSTALL_HINT,
  type RedisServer,
  type RedisServerOptions,
  redisServerAvailable,
  startRedisServer,
} from './redisServer.js';
