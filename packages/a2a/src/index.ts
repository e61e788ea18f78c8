export { A2AAgent, type A2AAgentOptions } from './a2aAgent.js';
export { AGENT_CARD_PATH, type A2ACard } from './a2aCard.js';
export { type A2AHandlerOptions, type A2ARequestListener, a2aHandler } from './a2aHandler.js';
export { A2AError } from './a2aError.js';
export type { PendingCall } from './a2aParts.js';
export type { AgentFactory, AgentHostLike, AgentSource } from './agentThreads.js';
