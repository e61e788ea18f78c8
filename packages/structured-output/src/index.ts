export { ApprovalRequiredError } from './approvalRequiredError.js';
export { GENERATE_RESPONSE } from './responseTool.js';
export {
  StructuredOutputAgent,
  type StructuredOutputAgentOptions,
} from './structuredOutputAgent.js';
export {
  isStructuredOutputReminder,
  StructuredOutputReminder,
} from './structuredOutputReminder.js';
export type { StructuredResponse } from './structuredResponse.js';
export { wrapResponseSchema } from './wrapResponseSchema.js';
