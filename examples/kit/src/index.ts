export { chooseModel, liveModelConfigured, type ModelChoice } from './chooseModel.js';
