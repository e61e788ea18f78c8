// Loaded with `node --import ./src/build/register.mjs`: resolves the @rxagent packages to the
// JavaScript that buildPackages.ts wrote, so the bench measures built code, not tsx output.
import { register } from 'node:module';

register('./resolveBuilt.mjs', import.meta.url);
