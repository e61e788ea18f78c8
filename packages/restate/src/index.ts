export { RestateAgent, type RestateAgentOptions } from './client/restateAgent.js';
export { RestateCallError } from './client/restateCallError.js';
export { type RestateAgentObjectOptions, restateAgent } from './object/restateAgentObject.js';
export { RestateJournal } from './object/restateJournal.js';
export type { EventsPage } from './object/runLog.js';
export { ensurePromiseWithResolvers } from './object/withResolvers.js';
export type {
  CallRequest,
  DecideRequest,
  EventsRequest,
  InterruptRequest,
  ObserveRequest,
  PendingApproval,
  SteerRequest,
  WireCallOptions,
} from './wire.js';
