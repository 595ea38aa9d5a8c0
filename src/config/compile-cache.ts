/**
 * Node's compile cache for a command's process: V8 keeps the compiled code of the modules the
 * command loads (Astro, Vite, Rollup, the AWS SDK, this project's TypeScript) and the next run takes
 * it instead of compiling again. Measured on the demo: a no-change check 2.97 → 2.58 s, a build with
 * warm caches 14.3 → 13.2 s; half of a small deploy's CPU time was loading its modules.
 *
 * The cache sits with the build's other caches (`<PRESSROOM_CACHE_DIR or .cache>/node-compile`), not
 * in Node's default shared temporary folder, where another user of the machine could put code in
 * front of ours. It must be on before the command's modules load, so PRESSROOM_CACHE_DIR is read
 * here from the environment or `.env`, ahead of the configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { cacheFolder } from './cache-folders.ts';

export function enableCompileCache(root: string, env: NodeJS.ProcessEnv = process.env): void {
  const dotEnv = path.join(root, '.env');
  const fromFile = () => (existsSync(dotEnv) ? parseEnv(readFileSync(dotEnv, 'utf8')).PRESSROOM_CACHE_DIR : undefined);
  const cacheDir = (env.PRESSROOM_CACHE_DIR ?? fromFile())?.trim() || undefined;
  module.enableCompileCache?.(cacheFolder(root, { cacheDir }, 'node-compile'));
}
