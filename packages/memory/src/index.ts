export { factKey } from './factKey.js';
export { HashEmbedder, type HashEmbedderOptions } from './hashEmbedder.js';
export {
  FACTS_SEGMENT,
  LongTermMemory,
  type LongTermMemoryOptions,
  type Recalled,
} from './longTermMemory.js';
export { memoryBlockText, stableJson } from './memoryBlock.js';
export { memoryTools } from './memoryTools.js';
export { mergePatch } from './mergePatch.js';
export {
  DEFAULT_OBSERVER_INSTRUCTIONS,
  type Observation,
  observeExchange,
  SAVE_FACTS_TOOL,
} from './observer.js';
export {
  WORKING_KEY,
  WORKING_SEGMENT,
  type WorkingMemorySnapshot,
  WorkingMemoryWriter,
} from './workingMemory.js';
