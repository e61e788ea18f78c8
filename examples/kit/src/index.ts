export { type CapturedOutput, captureOutput } from './captureOutput.js';
export {
  anthropicConfigured,
  chooseModel,
  liveModelConfigured,
  type ModelChoice,
} from './chooseModel.js';
export type { ExampleOptions } from './exampleOptions.js';
export { isEntryPoint, reportFailure, runMain } from './runMain.js';
export {
  lastToolOutput,
  latestToolOutputs,
  type SeenToolOutput,
  toolOutputs,
  wireText,
} from './toolOutputs.js';
export { traceArg, writeTracePage } from './tracePage.js';
