import type { ToolApprovalContext } from '@rxagent/core';

/**
 * One entry of a ReActAgent's `approvalRules`: calls of the tools `tool` names (a name, or
 * a RegExp tested on the name) for which `when` (given the validated arguments and who is
 * asking) is true are decided by `decision` before the tool's `needsApproval` is asked:
 * `'allow'` runs them without asking, `'ask'` stops the call for approval, `'deny'` refuses
 * them with the error result `[denied] <reason>`. The first matching rule decides.
 */
export interface ApprovalRule {
  readonly tool: string | RegExp;
  /**
   * Whether the rule applies to this call (default: always). Rules with `when` apply only
   * to calls whose arguments are valid; a `when` that throws or rejects makes the call wait
   * for approval.
   */
  // biome-ignore lint/suspicious/noExplicitAny: rules cover tools of every argument type.
  readonly when?: (args: any, context: ToolApprovalContext) => boolean | Promise<boolean>;
  readonly decision: 'allow' | 'ask' | 'deny';
  /** Why (a deny rule's reason is what the model reads; default `denied by an approval rule`). */
  readonly reason?: string;
}

/** The reason a deny rule without one gives. */
export const RULE_DENIAL = 'denied by an approval rule';

const RULE_KEYS = new Set(['tool', 'when', 'decision', 'reason']);
const DECISIONS = new Set(['allow', 'ask', 'deny']);

/**
 * Checks a ReActAgent's `approvalRules` option and returns a frozen copy; throws a TypeError
 * naming the rule's index and field when one is unusable.
 */
export function checkApprovalRules(agentName: string, value: unknown): readonly ApprovalRule[] {
  if (value === undefined) return [];
  const where = `ReActAgent "${agentName}": approvalRules`;
  if (!Array.isArray(value))
    throw new TypeError(`${where} must be an array of { tool, when?, decision, reason? }.`);
  return Object.freeze(
    value.map((rule: unknown, index) => {
      const at = `${where}[${index}]`;
      if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
        throw new TypeError(`${at} must be an object { tool, when?, decision, reason? }.`);
      const { tool, when, decision, reason } = rule as Record<string, unknown>;
      const unknown = Object.keys(rule).filter((key) => !RULE_KEYS.has(key));
      if (unknown.length > 0)
        throw new TypeError(
          `${at} has unknown field(s) ${unknown.join(', ')}; a rule has tool, when, decision and reason.`,
        );
      if (!((typeof tool === 'string' && tool !== '') || tool instanceof RegExp))
        throw new TypeError(`${at}.tool must be a tool name or a RegExp matching tool names.`);
      if (when !== undefined && typeof when !== 'function')
        throw new TypeError(`${at}.when must be a function (args, { callContext }) => boolean.`);
      if (typeof decision !== 'string' || !DECISIONS.has(decision))
        throw new TypeError(
          `${at}.decision must be 'allow', 'ask' or 'deny', got ${JSON.stringify(decision) ?? String(decision)}.`,
        );
      if (reason !== undefined && typeof reason !== 'string')
        throw new TypeError(`${at}.reason must be a string when given.`);
      return Object.freeze({ ...(rule as ApprovalRule) });
    }),
  );
}

/** Whether `rule` names the tool `name`. */
export function ruleNames(rule: ApprovalRule, name: string): boolean {
  if (typeof rule.tool === 'string') return rule.tool === name;
  rule.tool.lastIndex = 0; // a /g or /y RegExp keeps state between tests
  return rule.tool.test(name);
}

/** How a rule is named in `metadata.decision.rule`: its index and its `tool` pattern. */
export function ruleLabel(
  rule: ApprovalRule,
  index: number,
): { readonly index: number; readonly tool: string } {
  return { index, tool: typeof rule.tool === 'string' ? rule.tool : String(rule.tool) };
}
