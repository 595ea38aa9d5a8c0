/**
 * `npm run build`: builds the site into a staging folder and only then swaps
 * it in as `dist/`, so a build that cannot finish leaves the previous site
 * exactly as it was.
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'astro';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const staging = path.join(root, '.cache', 'build', 'dist-next');
const previous = path.join(root, '.cache', 'build', 'dist-previous');

async function main(): Promise<number> {
  await rm(staging, { recursive: true, force: true });
  try {
    await build({ root, outDir: staging });
  } catch (error) {
    console.error(`\nbuild failed: ${(error as Error).message.split('\n')[0]}`);
    console.error(existsSync(dist) ? 'dist/ was left exactly as it was.' : 'no dist/ was written.');
    await rm(staging, { recursive: true, force: true });
    return 1;
  }
  await rm(previous, { recursive: true, force: true });
  if (existsSync(dist)) await rename(dist, previous);
  await rename(staging, dist);
  await rm(previous, { recursive: true, force: true });
  return 0;
}

process.exitCode = await main();
