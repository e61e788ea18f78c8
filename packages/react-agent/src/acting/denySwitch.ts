import type { PreActingEvent, ToolResultBlock, ToolUseBlock } from '@rxagent/core';
import { errorResult } from '../loop/toolResultMsg.js';

/**
 * The `deny(reason)` control of a preActing event. The agent reads `reason` from the switch,
 * not from the event, so a hook that returns a replacement event (a spread copy) can still
 * deny the call through either object.
 */
export class DenySwitch {
  reason: string | undefined;

  /**
   * `event` with `deny()` and `deniedReason` (set by `deny()`) added as plain properties: an
   * accessor would put every such event in V8's slow dictionary mode. With `listened` false
   * (no hook and no stream() subscriber sees the event, so nobody can deny) it is returned
   * as it is.
   */
  attach(event: Omit<PreActingEvent, 'deny' | 'deniedReason'>, listened = true): PreActingEvent {
    if (!listened) return event as PreActingEvent;
    const deniable = event as Omit<PreActingEvent, 'deny' | 'deniedReason'> & {
      deny(reason: string): void;
      deniedReason?: string;
    };
    deniable.deny = (reason: string) => {
      this.reason = String(reason);
      deniable.deniedReason = this.reason;
    };
    return deniable as PreActingEvent;
  }
}

/**
 * The error result of a call that was refused: `[denied] <reason>` (the model knows the call
 * from its id; the same text a client gets when it answers a denial with a tool result).
 */
export function deniedResult(call: ToolUseBlock, reason: string): ToolResultBlock {
  return errorResult(call, `[denied] ${reason}`);
}
