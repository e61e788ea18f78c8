import type { Session } from 'node:inspector/promises';
import { settledHeap } from './stats.js';

/** A V8 heap snapshot as the inspector sends it (the fields the bench tools read). */
export interface HeapSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Collects garbage, then takes and parses a heap snapshot through `session`. */
export async function takeHeapSnapshot(session: Session): Promise<HeapSnapshot> {
  await settledHeap();
  const chunks: string[] = [];
  const onChunk = (message: { params: { chunk: string } }) => chunks.push(message.params.chunk);
  session.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await session.post('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  session.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  return JSON.parse(chunks.join('')) as HeapSnapshot;
}
