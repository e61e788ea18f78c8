import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { BoundedTaskStore } from './boundedTaskStore.js';

const context = new ServerCallContext();
const tenantB = new ServerCallContext({ tenant: 'b' });

function task(id: string, state: TaskState, contextId = 'c'): Task {
  return {
    id,
    contextId,
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    artifacts: [],
    history: [],
    metadata: undefined,
  };
}

const listAll = {
  tenant: '',
  contextId: '',
  status: 0,
  pageToken: '',
  statusTimestampAfter: undefined,
};

describe('BoundedTaskStore', () => {
  it('drops the task that finished longest ago once more than maxTasks have finished', async () => {
    const store = new BoundedTaskStore(2);
    for (const id of ['a', 'b', 'c'])
      await store.save(task(id, TaskState.TASK_STATE_COMPLETED), context);
    expect(store.size).toBe(2);
    expect(await store.load('a', context)).toBeUndefined();
    expect((await store.load('c', context))?.id).toBe('c');
  });

  it('orders by when a task finished, not when it was first saved; a late save keeps its place', async () => {
    const store = new BoundedTaskStore(2);
    await store.save(task('early', TaskState.TASK_STATE_WORKING), context);
    await store.save(task('x', TaskState.TASK_STATE_COMPLETED), context);
    await store.save(task('early', TaskState.TASK_STATE_INPUT_REQUIRED), context);
    // Saved again in a finished state: still finished after x.
    await store.save(task('x', TaskState.TASK_STATE_COMPLETED), context);
    await store.save(task('y', TaskState.TASK_STATE_FAILED), context);
    expect(await store.load('x', context)).toBeUndefined();
    expect(await store.load('early', context)).toBeDefined();
  });

  it('keeps running tasks whatever the bound, and a resumed task leaves the finished order', async () => {
    const store = new BoundedTaskStore(1);
    await store.save(task('run1', TaskState.TASK_STATE_WORKING), context);
    await store.save(task('run2', TaskState.TASK_STATE_SUBMITTED), context);
    await store.save(task('wait', TaskState.TASK_STATE_INPUT_REQUIRED), context);
    await store.save(task('wait', TaskState.TASK_STATE_WORKING), context);
    await store.save(task('done1', TaskState.TASK_STATE_CANCELED), context);
    await store.save(task('done2', TaskState.TASK_STATE_REJECTED), context);
    expect(store.size).toBe(4);
    for (const id of ['run1', 'run2', 'wait', 'done2'])
      expect(await store.load(id, context), id).toBeDefined();
  });

  it('hands out copies, keeps tenants apart, and lists a tenant with the SDK store pages', async () => {
    const store = new BoundedTaskStore(10);
    const saved = task('t', TaskState.TASK_STATE_COMPLETED);
    await store.save(saved, context);
    saved.contextId = 'changed after saving';
    const loaded = await store.load('t', context);
    expect(loaded?.contextId).toBe('c');
    loaded!.contextId = 'changed after loading';
    expect((await store.load('t', context))?.contextId).toBe('c');
    expect(await store.load('t', tenantB)).toBeUndefined();
    await store.save(task('u', TaskState.TASK_STATE_COMPLETED, 'other'), context);
    await store.save(task('v', TaskState.TASK_STATE_COMPLETED), tenantB);
    const page = await store.list({ ...listAll, pageSize: 1 }, context);
    expect(page.totalSize).toBe(2);
    expect(page.tasks).toHaveLength(1);
    expect(page.nextPageToken).not.toBe('');
    const byContext = await store.list({ ...listAll, contextId: 'other' }, context);
    expect(byContext.tasks.map((t) => t.id)).toEqual(['u']);
    expect((await store.list(listAll, tenantB)).tasks.map((t) => t.id)).toEqual(['v']);
  });
});
