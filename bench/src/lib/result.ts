import { type Summary, summarize } from './stats.js';

/** One line of a result table: a measured quantity summarised over rounds. */
export interface Row extends Summary {
  readonly label: string;
  readonly unit: string;
}

/** One budget line, checked against a measured median. */
export interface BudgetCheck {
  readonly line: string;
  readonly value: number;
  readonly limit: number;
  /** Whether the value must stay at or below the limit (a cost) or reach it (a throughput). */
  readonly bound: 'max' | 'min';
  readonly unit: string;
  readonly pass: boolean;
}

/** What one suite reports. */
export interface SuiteResult {
  readonly id: string;
  readonly title: string;
  readonly rows: Row[];
  readonly budgets: BudgetCheck[];
  /** Anything else worth keeping in the JSON file (raw samples, counts). */
  readonly details: Record<string, unknown>;
}

/** A row from samples. */
export function row(label: string, unit: string, values: readonly number[]): Row {
  return { label, unit, ...summarize(values) };
}

/** A budget check: `value <= limit`. */
export function atMost(line: string, value: number, limit: number, unit: string): BudgetCheck {
  return { line, value, limit, bound: 'max', unit, pass: value <= limit };
}

/** A budget check: `value >= limit`. */
export function atLeast(line: string, value: number, limit: number, unit: string): BudgetCheck {
  return { line, value, limit, bound: 'min', unit, pass: value >= limit };
}
