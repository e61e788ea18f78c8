export { type CapturedOutput, captureOutput } from './captureOutput.js';
export { chooseModel, liveModelConfigured, type ModelChoice } from './chooseModel.js';
export { isEntryPoint, runMain } from './runMain.js';
export {
  lastToolOutput,
  latestToolOutputs,
  type SeenToolOutput,
  toolOutputs,
  wireText,
} from './toolOutputs.js';
