import type { AgentBase, HookEvent, Memory } from '@rxagent/core';
import type { Observable } from 'rxjs';

/** What the reasoning and acting steps need from their agent (its protected powers, bound). */
export interface StepHost {
  readonly agent: AgentBase;
  readonly name: string;
  readonly memory: Memory;
  notify<E extends HookEvent>(event: E): Observable<E>;
  /** Whether any hook or stream() subscriber would receive a per-chunk event. */
  hasEventListeners(): boolean;
}
