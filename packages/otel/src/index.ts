export { GenAi } from './genAiAttributes.js';
export { genAiMessages } from './genAiMessages.js';
export { type OtelHook, type OtelHookOptions, otelHook } from './otelHook.js';
