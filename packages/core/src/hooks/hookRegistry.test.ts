import { describe, expect, it } from 'vitest';
import type { Hook } from './hook.js';
import type { HookEventType } from './hookEvent.js';
import { HookRegistry } from './hookRegistry.js';

function named(name: string, priority?: number): Hook {
  return priority === undefined ? { name, onEvent() {} } : { name, priority, onEvent() {} };
}

function names(hooks: readonly Hook[]): Array<string | undefined> {
  return hooks.map((hook) => hook.name);
}

describe('HookRegistry', () => {
  it('orders hooks by ascending priority, ties in registration order', () => {
    const registry = new HookRegistry();
    registry.add(named('default-1'));
    registry.add(named('late', 200));
    registry.add(named('early', 10));
    registry.add(named('default-2', 100));
    registry.add(named('negative', -5));

    expect(names(registry.merged(new HookRegistry()))).toEqual([
      'negative',
      'early',
      'default-1',
      'default-2',
      'late',
    ]);
  });

  it('merges another registry into the same ordering, ties across both in registration order', () => {
    const own = new HookRegistry();
    const system = new HookRegistry();
    own.add(named('own-a'));
    system.add(named('system-b'));
    own.add(named('own-c'));
    system.add(named('system-first', 1));

    expect(names(own.merged(system))).toEqual(['system-first', 'own-a', 'system-b', 'own-c']);
  });

  it('reflects additions and removals in either registry after a merge was cached', () => {
    const own = new HookRegistry();
    const system = new HookRegistry();
    const a = named('a');
    own.add(a);
    expect(names(own.merged(system))).toEqual(['a']);

    system.add(named('s', 1));
    expect(names(own.merged(system))).toEqual(['s', 'a']);

    own.remove(a);
    expect(names(own.merged(system))).toEqual(['s']);

    system.clear();
    expect(own.merged(system)).toEqual([]);
  });

  it('returns the same array while nothing changed, and never mutates an array it handed out', () => {
    const own = new HookRegistry();
    const system = new HookRegistry();
    const a = named('a');
    own.add(a);
    const first = own.merged(system);
    expect(own.merged(system)).toBe(first);

    own.remove(a);
    own.add(named('b'));
    expect(names(first)).toEqual(['a']);
    expect(names(own.merged(system))).toEqual(['b']);
  });

  it('returns a disposer that removes the hook and is safe to call twice', () => {
    const registry = new HookRegistry();
    const dispose = registry.add(named('a'));
    registry.add(named('b'));
    const before = registry.version;

    dispose();
    dispose();

    expect(names(registry.merged(new HookRegistry()))).toEqual(['b']);
    expect(registry.version).toBe(before + 1);
  });

  it('runs a hook added twice twice; each disposer removes only its own registration', () => {
    const registry = new HookRegistry();
    const hook = named('twice');
    const disposeFirst = registry.add(hook);
    registry.add(hook);
    expect(registry.merged(new HookRegistry())).toEqual([hook, hook]);

    disposeFirst();
    expect(registry.merged(new HookRegistry())).toEqual([hook]);

    registry.remove(hook);
    expect(registry.merged(new HookRegistry())).toEqual([]);
  });

  it('treats removing an absent hook as a no-op that does not bump the version', () => {
    const registry = new HookRegistry();
    registry.add(named('a'));
    const before = registry.version;

    registry.remove(named('absent'));

    expect(registry.version).toBe(before);
    expect(names(registry.merged(new HookRegistry()))).toEqual(['a']);
  });

  it('rejects a hook without an onEvent method with a TypeError', () => {
    const registry = new HookRegistry();
    expect(() => registry.add({ name: 'broken' } as unknown as Hook)).toThrow(TypeError);
    expect(() => registry.add(null as unknown as Hook)).toThrow(/onEvent/);
    expect(registry.merged(new HookRegistry())).toEqual([]);
  });

  it('rejects a priority that is not a finite number, since it could not be ordered', () => {
    const registry = new HookRegistry();
    expect(() => registry.add({ name: 'nan', priority: Number.NaN, onEvent() {} })).toThrow(
      /Hook "nan" has priority NaN/,
    );
    expect(() => registry.add({ priority: '5' as unknown as number, onEvent() {} })).toThrow(
      TypeError,
    );
    expect(registry.merged(new HookRegistry())).toEqual([]);
  });

  describe('forType', () => {
    const wanting = (name: string, events?: HookEventType[], priority?: number): Hook => ({
      ...named(name, priority),
      ...(events !== undefined && { events }),
    });

    it('keeps, in dispatch order, the hooks that name the type or name no events', () => {
      const own = new HookRegistry();
      const system = new HookRegistry();
      own.add(wanting('all'));
      own.add(wanting('post-only', ['postCall']));
      own.add(wanting('pre-and-post', ['preCall', 'postCall'], 10));
      system.add(wanting('system-pre', ['preCall'], 5));

      expect(names(own.forType(system, 'preCall'))).toEqual(['system-pre', 'pre-and-post', 'all']);
      expect(names(own.forType(system, 'postCall'))).toEqual(['pre-and-post', 'all', 'post-only']);
      expect(names(own.forType(system, 'reasoningChunk'))).toEqual(['all']);
    });

    it('is empty for a type no hook wants', () => {
      const own = new HookRegistry();
      own.add(wanting('post-only', ['postCall']));
      expect(own.forType(new HookRegistry(), 'actingChunk')).toEqual([]);
    });

    it('returns the same array until either registry changes', () => {
      const own = new HookRegistry();
      const system = new HookRegistry();
      own.add(wanting('post-only', ['postCall']));
      const first = own.forType(system, 'postCall');
      expect(own.forType(system, 'postCall')).toBe(first);

      const remove = own.add(wanting('second', ['postCall']));
      const afterAdd = own.forType(system, 'postCall');
      expect(afterAdd).not.toBe(first);
      expect(names(afterAdd)).toEqual(['post-only', 'second']);

      remove();
      expect(names(own.forType(system, 'postCall'))).toEqual(['post-only']);

      const systemHook = wanting('system', ['postCall']);
      system.add(systemHook);
      expect(names(own.forType(system, 'postCall'))).toEqual(['post-only', 'system']);
      system.remove(systemHook);
      expect(names(own.forType(system, 'postCall'))).toEqual(['post-only']);
    });

    it('rejects events that are not an array of event types with a TypeError naming the hook', () => {
      const registry = new HookRegistry();
      const bad = [
        { name: 'as-string', events: 'postCall' },
        { name: 'with-number', events: ['postCall', 3] },
      ];
      for (const { name, events } of bad) {
        expect(() => registry.add({ name, events, onEvent() {} } as unknown as Hook)).toThrow(
          new RegExp(`Hook "${name}" has events .*use an array of event types`),
        );
        expect(() => registry.add({ name, events, onEvent() {} } as unknown as Hook)).toThrow(
          TypeError,
        );
      }
      expect(registry.merged(new HookRegistry())).toEqual([]);
    });

    it('rejects an unknown event type with a TypeError listing the known ones', () => {
      const registry = new HookRegistry();
      const typo = { name: 'typo', events: ['postcall'], onEvent() {} } as unknown as Hook;
      expect(() => registry.add(typo)).toThrow(TypeError);
      expect(() => registry.add(typo)).toThrow(
        'Hook "typo" names unknown event type "postcall"; use some of preCall, postCall,',
      );
      expect(registry.merged(new HookRegistry())).toEqual([]);
    });
  });
});
