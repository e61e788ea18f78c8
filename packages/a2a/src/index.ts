export type { AllowedOrigins } from '@rxagent/core';
export { A2AAgent, type A2AAgentOptions } from './a2aAgent.js';
export { type A2ACard, AGENT_CARD_PATH } from './a2aCard.js';
export { A2AError } from './a2aError.js';
export { type A2AHandlerOptions, type A2ARequestListener, a2aHandler } from './a2aHandler.js';
export type { PendingCall } from './a2aParts.js';
