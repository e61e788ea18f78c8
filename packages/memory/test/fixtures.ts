/** Deterministic noise: `n` facts about other things, made of a small vocabulary. */
export function noiseFacts(n: number, seed = 1): string[] {
  const subjects = [
    'The printer',
    'Bob',
    'The office',
    'Carol',
    'The garden',
    'The car',
    'Dave',
    'The team',
  ];
  const verbs = [
    'needs',
    'prefers',
    'ordered',
    'booked',
    'painted',
    'repaired',
    'visited',
    'returned',
  ];
  const objects = [
    'blue folders',
    'a window seat',
    'Friday meetings',
    'the red bicycle',
    'oak tables',
    'jazz records',
    'the east wing',
    'spare keys',
    'paper cups',
    'winter tyres',
  ];
  const random = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    return `${pick(subjects)} ${pick(verbs)} ${pick(objects)} (note ${i}).`;
  });
}

/** A small seeded PRNG (mulberry32): the same seed, the same sequence. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
