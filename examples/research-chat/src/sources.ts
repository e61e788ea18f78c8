import { tool } from '@rxagent/core';
import { z } from 'zod';

/** The topics the chat researches, one a turn (then again, in a new order). */
export const TOPICS = [
  'solid-state batteries',
  'perovskite solar cells',
  'green hydrogen',
  'offshore wind',
  'grid-scale storage',
  'small modular reactors',
  'heat pumps',
  'carbon capture',
  'geothermal drilling',
  'tidal power',
  'sodium-ion cells',
  'smart grids',
];

/** A stable number for a topic, so every run finds the same figures. */
function figureOf(topic: string): number {
  let hash = 2166136261;
  for (let index = 0; index < topic.length; index++) {
    hash = Math.imul(hash ^ topic.charCodeAt(index), 16777619);
  }
  return 10 + ((hash >>> 0) % 90);
}

/** The key fact a source states about `topic`: what the model is expected to keep. */
export function keyFact(topic: string): string {
  return `Key figure for ${topic}: ${figureOf(topic)}% cost decline since 2015.`;
}

const FILLER = [
  'The literature review covers field trials, laboratory studies and market reports.',
  'Several groups report results that are hard to compare because their methods differ.',
  'Costs are given in 2023 dollars unless a table says otherwise.',
  'Deployment depends as much on regulation and supply chains as on the technology itself.',
  'The appendix lists every data set with its licence and the date it was retrieved.',
];

/**
 * A long source document about `topic` (about `chars` characters): a heading, the key fact
 * near the top, and pages of review text — the kind of tool output that fills a context
 * window after a few turns.
 */
export function sourceDocument(topic: string, chars = 5_000): string {
  const lines = [`# Review: ${topic}`, keyFact(topic)];
  let length = lines.join('\n').length;
  for (let index = 0; length < chars; index++) {
    const line = `${index + 1}. ${FILLER[index % FILLER.length]}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** The research tool: returns a long source document for a topic. */
export const readSourceTool = tool({
  name: 'read_source',
  description: 'Reads the main review article about a research topic (long).',
  parameters: z.object({ topic: z.string().describe('The research topic') }),
  execute: ({ topic }) => sourceDocument(topic),
});
