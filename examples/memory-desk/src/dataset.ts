import type { EvalCase } from '@rxagent/eval';

/** What customers tell the desk about, and the values they pick from. */
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  city: ['Lisbon', 'Oslo', 'Bergen', 'Lyon', 'Porto', 'Turin', 'Ghent', 'Graz'],
  drink: ['espresso', 'matcha', 'rooibos', 'cocoa', 'chai', 'kombucha'],
  pet: ['beagle', 'parrot', 'tortoise', 'ferret', 'goldfish', 'hamster'],
  laptop: ['ThinkPad', 'MacBook', 'Framework', 'Zenbook', 'Surface'],
  plan: ['basic', 'silver', 'gold', 'platinum'],
  colour: ['teal', 'crimson', 'amber', 'indigo', 'olive'],
};

/** Small talk that states no fact, between the sessions that do. */
const SMALL_TALK = [
  'Thanks, the last answer helped a lot.',
  'Is the office open on Sunday?',
  'Hello again, just checking in.',
  'Can you resend the invoice link?',
];

/**
 * The synthetic long-memory dataset: `users` customers, each with sessions over days in
 * which facts are stated, updated and contradicted (and small talk in between), then one
 * question per attribute they mentioned, whose expected answer is the latest value.
 * Deterministic: the same arguments give the same cases, in the same order.
 */
export function longMemoryDataset(users = 12, seed = 7): EvalCase[] {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const cases: EvalCase[] = [];
  for (let u = 0; u < users; u++) {
    const userId = `customer-${String(u + 1).padStart(2, '0')}`;
    const current = new Map<string, string>();
    const sessions: string[] = [];
    for (let day = 1; day <= 14; day++) {
      if (random() < 0.3) {
        sessions.push(`[day ${day}] ${pick(SMALL_TALK)}`);
        continue;
      }
      const attribute = pick(Object.keys(ATTRIBUTES));
      const old = current.get(attribute);
      const value = pick(ATTRIBUTES[attribute]!.filter((v) => v !== old));
      current.set(attribute, value);
      if (old === undefined) sessions.push(`[day ${day}] Hi! My ${attribute} is ${value}.`);
      else if (random() < 0.5)
        sessions.push(`[day ${day}] Update: my ${attribute} is now ${value}.`);
      else sessions.push(`[day ${day}] Correction: my ${attribute} is not ${old}, it is ${value}.`);
    }
    for (const [attribute, value] of current) {
      cases.push({
        id: `${userId}/${attribute}`,
        input: `Remind me, what is my ${attribute} these days?`,
        expected: value,
        metadata: { userId, attribute, sessions },
      });
    }
  }
  return cases;
}

/** mulberry32: a small seeded PRNG. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
