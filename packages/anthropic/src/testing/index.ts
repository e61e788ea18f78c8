export { type CacheUsage, cacheHitRatio } from '@rxagent/core/testing';
export { AnthropicPromptCache, anthropicPromptBlocks } from './anthropicPromptCache.js';
export type {
  AnthropicScriptedError,
  AnthropicScriptedReply,
  AnthropicScriptedToolCall,
  AnthropicScriptedTurn,
} from './anthropicScript.js';
export {
  type AnthropicRecordedRequest,
  type StrictAnthropicServer,
  startStrictAnthropicServer,
} from './strictAnthropicServer.js';
export { ThinkingSigner } from './thinkingSigner.js';
export { validateMessagesRequest } from './validateMessagesRequest.js';
