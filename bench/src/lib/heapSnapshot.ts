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

/** Where each field sits in a snapshot's flat node and edge arrays, and their type names. */
export interface SnapshotLayout {
  /** Numbers per node, and per edge. */
  readonly width: number;
  readonly edgeWidth: number;
  readonly type: number;
  readonly name: number;
  readonly selfSize: number;
  readonly edgeCount: number;
  readonly id: number;
  readonly edgeType: number;
  readonly edgeName: number;
  readonly to: number;
  readonly nodeTypes: readonly string[];
  readonly edgeTypes: readonly string[];
}

/** The layout of `snap`'s node and edge arrays, read from its meta. */
export function snapshotLayout(snap: HeapSnapshot): SnapshotLayout {
  const { node_fields, node_types, edge_fields, edge_types } = snap.snapshot.meta;
  return {
    width: node_fields.length,
    edgeWidth: edge_fields.length,
    type: node_fields.indexOf('type'),
    name: node_fields.indexOf('name'),
    selfSize: node_fields.indexOf('self_size'),
    edgeCount: node_fields.indexOf('edge_count'),
    id: node_fields.indexOf('id'),
    edgeType: edge_fields.indexOf('type'),
    edgeName: edge_fields.indexOf('name_or_index'),
    to: edge_fields.indexOf('to_node'),
    nodeTypes: node_types[0],
    edgeTypes: edge_types[0],
  };
}

/**
 * The name a node is listed by: its constructor or function name for objects, closures and
 * native objects, else its type in parentheses (`(string)`, `(array)`). `offset` is the
 * node's first field in `snap.nodes` (its index × `layout.width`).
 */
export function nodeName(snap: HeapSnapshot, layout: SnapshotLayout, offset: number): string {
  const type = layout.nodeTypes[snap.nodes[offset + layout.type]!]!;
  const raw = snap.strings[snap.nodes[offset + layout.name]!]!;
  return type === 'object' || type === 'closure' || type === 'native' ? raw : `(${type})`;
}
