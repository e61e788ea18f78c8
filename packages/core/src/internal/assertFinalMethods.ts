const FINAL_METHODS = ['call', 'stream', 'observe', 'reply', 'queue', 'steer', 'recover'] as const;

/**
 * Throws a TypeError when a class between `target` and `base` overrides a final method of
 * AgentBase (TypeScript has no `final`, so the constructor enforces it at run time).
 */
export function assertFinalMethods(
  target: abstract new (...args: never[]) => unknown,
  base: object,
): void {
  for (
    let proto = target.prototype;
    proto && proto !== base;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const method of FINAL_METHODS) {
      if (!Object.hasOwn(proto, method)) continue;
      const owner: string = proto.constructor.name;
      const culprit = owner === target.name ? owner : `${target.name} (through ${owner})`;
      throw new TypeError(
        `${culprit} overrides AgentBase.${method}(), which is final: put the agent's logic in doCall() (and doObserve()) instead.`,
      );
    }
  }
}
