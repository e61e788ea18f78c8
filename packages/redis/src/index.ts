export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisClient,
  type RedisConnectionOptions,
} from './connection/redisConnection.js';
export { RedisMsgHub } from './hub/redisMsgHub.js';
export type { RedisHubEvent, RedisMsgHubOptions } from './hub/redisMsgHubOptions.js';
export {
  type Detach,
  RedisInterrupts,
  type RedisInterruptsOptions,
} from './interrupt/redisInterrupts.js';
export {
  RedisSession,
  type RedisSessionOptions,
  type SaveOptions,
  type VersionedState,
} from './session/redisSession.js';
export { AgentWorker } from './worker/agentWorker.js';
export type { AgentWorkerOptions } from './worker/agentWorkerOptions.js';
export { RemoteAgent, type RemoteAgentOptions } from './worker/remoteAgent.js';
export { RemoteRunError, RemoteRunTimeoutError } from './worker/remoteRunError.js';
export type { WireError } from './worker/wireEvent.js';
