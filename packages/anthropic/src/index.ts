export { AnthropicChatModel, type AnthropicChatModelOptions } from './anthropicChatModel.js';
export { StreamEventReader } from './streamEventReader.js';
export { toAnthropicError } from './toAnthropicError.js';
export { type MessagesRequestSettings, toMessagesRequest } from './toMessagesRequest.js';
