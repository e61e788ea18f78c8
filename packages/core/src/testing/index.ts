export type {
  ScriptedError,
  ScriptedReply,
  ScriptedToolCall,
  ScriptedTurn,
} from './script.js';
export { ScriptedChatModel, type ScriptedChatModelOptions } from './scriptedChatModel.js';
export {
  type RecordedRequest,
  type StrictOpenAIServer,
  type StrictOpenAIServerOptions,
  startStrictOpenAIServer,
} from './strictOpenAIServer.js';
export { EchoAgent } from './testAgents.js';
export { validateChatRequest } from './validateChatRequest.js';
