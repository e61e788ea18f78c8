export {
  type MemoryStoreConformanceOptions,
  memoryStoreConformance,
} from './memoryStoreConformance.js';
export { type SessionConformanceOptions, sessionConformance } from './sessionConformance.js';
