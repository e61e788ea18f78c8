/**
 * Where one in-process conversation subscribes (not part of `pnpm bench`): counts
 * `Observable.subscribe` calls of one build by the rxagent function that made them.
 * Usage: `node --import tsx --import ./src/build/register.mjs src/tools/subscribeSites.ts <buildDir>`
 */
import { Observable } from 'rxjs';
import { buildConversation, loadBuild } from '../lib/loadBuild.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: subscribeSites.ts <buildDir>');
const conversation = buildConversation(await loadBuild(dir));
for (let i = 0; i < 20; i++) await conversation();
const proto = Observable.prototype as unknown as { subscribe: (...args: unknown[]) => unknown };
const subscribe = proto.subscribe;
const sites = new Map<string, number>();
proto.subscribe = function (this: unknown, ...args: unknown[]) {
  const frames = (new Error().stack ?? '').split('\n').slice(2);
  const own = frames.find((frame) => /@rxagent|\/packages\//.test(frame)) ?? '(outside rxagent)';
  const site = own
    .trim()
    .replace(/^at /, '')
    .replace(/\(?\S*@rxagent\//, '')
    .replace(/\)$/, '');
  sites.set(site, (sites.get(site) ?? 0) + 1);
  return subscribe.apply(this, args);
};
await conversation();
proto.subscribe = subscribe;
for (const [site, count] of [...sites].sort((a, b) => b[1] - a[1])) {
  console.log(`${String(count).padStart(4)}  ${site}`);
}
