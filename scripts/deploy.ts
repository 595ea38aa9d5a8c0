/**
 * `npm run deploy` (the command itself: deploy-command.ts). Node's compile cache is turned on
 * before the command's modules load (src/config/compile-cache.ts): the AWS SDK and the deploy's own
 * TypeScript take about half of a small deploy's CPU time to load, and from the second deploy on
 * they come from the cache (the deploy of one changed release at scale 1000 is about a second of work).
 */
import path from 'node:path';
import { enableCompileCache } from '../src/config/compile-cache.ts';

enableCompileCache(path.resolve(import.meta.dirname, '..'));
await import('./deploy-command.ts');
