export { type CliIo, runCli } from './cli.js';
export { type EvalCase, loadDataset } from './evalCase.js';
export type { CaseResult, EvalReport, ScorerSummary } from './evalReport.js';
export { type EvaluateOptions, evaluate } from './evaluate.js';
export type { ProgressOut } from './progressLine.js';
export { reportHtml } from './reportHtml.js';
export type { Score, ScoreFn, Scorer, ScorerLike } from './scorer.js';
export { exactMatch, type TextScorerOptions } from './scorers/exactMatch.js';
export { includes } from './scorers/includes.js';
export { type LlmJudgeOptions, llmJudge } from './scorers/llmJudge.js';
export { matchesSchema, type SafeParseSchema } from './scorers/matchesSchema.js';
export {
  type ToolTrajectoryOptions,
  toolCallNames,
  toolTrajectory,
} from './scorers/toolTrajectory.js';
export { percentile } from './summarize.js';
export { type RecordTraceOptions, recordTrace, type TraceRecording } from './trace/recordTrace.js';
export {
  type TraceEntry,
  type TraceEventData,
  type TraceMessageRef,
  toTraceEntry,
} from './trace/traceEntry.js';
export { type TraceHtmlOptions, traceHtml } from './trace/traceHtml.js';
export { traceFileName, type WrittenReport, writeReport } from './writeReport.js';
