export { AnthropicChatModel, type AnthropicChatModelOptions } from './anthropicChatModel.js';
export { StreamEventReader } from './streamEventReader.js';
export { type AnthropicErrorContext, toAnthropicError } from './toAnthropicError.js';
export { type MessagesRequestSettings, toMessagesRequest } from './toMessagesRequest.js';
