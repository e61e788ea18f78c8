import { checkOptions } from './checkOptions.js';

/** A class in an agent's constructor chain, with the option names it declares. */
interface DeclaringClass {
  readonly name: string;
  readonly optionKeys?: readonly string[];
}

/**
 * Checks an agent's options against the `static optionKeys` of every class from `target`
 * (the class being constructed) up to `base` (AgentBase), unioned. When a class of the chain
 * declares no `optionKeys` of its own, its keys are unknown and nothing is checked: a user
 * subclass opts in by declaring the option names it adds.
 */
export function checkAgentOptions(target: object, base: object, options: object): void {
  const known = new Set<string>();
  for (let cls = target; ; cls = Object.getPrototypeOf(cls)) {
    if (!Object.hasOwn(cls, 'optionKeys')) return;
    for (const key of (cls as DeclaringClass).optionKeys ?? []) known.add(key);
    if (cls === base) break;
  }
  checkOptions(options, known, (target as DeclaringClass).name);
}
