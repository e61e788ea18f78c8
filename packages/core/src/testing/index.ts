export {
  CASSETTE_VERSION,
  type CassetteError,
  type CassetteExchange,
  readCassette,
} from './cassette/cassetteFile.js';
export { firstDifference, type JsonDifference } from './cassette/firstDifference.js';
export { type RecordModelOptions, recordModel } from './cassette/recordModel.js';
export { type ReplayModelOptions, replayModel } from './cassette/replayModel.js';
export {
  type MemoryStoreConformanceOptions,
  memoryStoreConformance,
  type SessionConformanceOptions,
  sessionConformance,
} from './conformance/index.js';
export {
  type CacheUsage,
  cacheHitRatio,
  OpenAIPromptCache,
  openAIPromptText,
} from './promptCache.js';
export { RecordingSession } from './recordingSession.js';
export type {
  ScriptedError,
  ScriptedReply,
  ScriptedToolCall,
  ScriptedTurn,
} from './script.js';
export { ScriptedChatModel, type ScriptedChatModelOptions } from './scriptedChatModel.js';
export { freePort, stopProcess } from './serverProcess.js';
export {
  type RecordedRequest,
  type StrictOpenAIServer,
  type StrictOpenAIServerOptions,
  type StrictServerDialect,
  startStrictOpenAIServer,
} from './strictOpenAIServer.js';
export {
  type RecordedNotifications,
  subscribeAndRecord,
} from './subscribeAndRecord.js';
export {
  DelayedAgent,
  type DelayedAgentOptions,
  EchoAgent,
  type EchoAgentOptions,
  FailingAgent,
  type FailingAgentOptions,
  ManualAgent,
  RecordingAgent,
} from './testAgents.js';
export { unfrozenPath } from './unfrozenPath.js';
export { validateChatRequest } from './validateChatRequest.js';
