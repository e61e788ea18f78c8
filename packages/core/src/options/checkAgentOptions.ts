import { checkOptions } from './checkOptions.js';

/** A class in an agent's constructor chain, with the option names it declares. */
interface DeclaringClass {
  readonly name: string;
  readonly optionKeys?: readonly string[];
}

/**
 * The known option names of one constructor chain, with the `optionKeys` lists they were
 * made from (in chain order), so a list reassigned later is noticed and the set rebuilt.
 */
interface KnownKeys {
  readonly lists: readonly (readonly string[] | undefined)[];
  readonly keys: ReadonlySet<string>;
}

/** By class being constructed: every agent of a class checks against one set, not a new one each. */
const knownByClass = new WeakMap<object, KnownKeys>();

/**
 * Checks an agent's options against the `static optionKeys` of every class from `target`
 * (the class being constructed) up to `base` (AgentBase), unioned. When a class of the chain
 * declares no `optionKeys` of its own, its keys are unknown and nothing is checked: a user
 * subclass opts in by declaring the option names it adds. The union is made once per class
 * (and again only when a class of the chain assigns other `optionKeys`).
 */
export function checkAgentOptions(target: object, base: object, options: object): void {
  const cached = knownByClass.get(target);
  let index = 0;
  let fresh = cached !== undefined;
  for (let cls = target; ; cls = Object.getPrototypeOf(cls), index++) {
    if (!Object.hasOwn(cls, 'optionKeys')) return;
    if (fresh && cached!.lists[index] !== (cls as DeclaringClass).optionKeys) fresh = false;
    if (cls === base) break;
  }
  const known =
    fresh && cached!.lists.length === index + 1 ? cached!.keys : knownKeys(target, base);
  checkOptions(options, known, (target as DeclaringClass).name);
}

/** The union of the `optionKeys` from `target` up to `base`, cached for `target`. */
function knownKeys(target: object, base: object): ReadonlySet<string> {
  const keys = new Set<string>();
  const lists: (readonly string[] | undefined)[] = [];
  for (let cls = target; ; cls = Object.getPrototypeOf(cls)) {
    const list = (cls as DeclaringClass).optionKeys;
    lists.push(list);
    for (const key of list ?? []) keys.add(key);
    if (cls === base) break;
  }
  knownByClass.set(target, { lists, keys });
  return keys;
}
