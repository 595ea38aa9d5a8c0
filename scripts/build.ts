/**
 * `npm run build [-- --out DIR]`: builds the site into a staging folder next
 * to the output and only then swaps it in, so a build that cannot finish
 * leaves the previous site exactly as it was. Default output: `dist/`.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { closeEmbeddedApis } from '../emulator/embedded.ts';
import { writeDataReport } from './data-report.ts';
import { assertReplaceable, swapIn } from './staged-output.ts';

const root = path.resolve(import.meta.dirname, '..');
/** What every build of this site writes: an existing --out without them is not replaced. */
const SITE_SIGNATURE = ['index.html', '_astro'];
// Builds run in CI and cron jobs with no network; never phone home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = path.resolve(values.out ?? path.join(root, 'dist'));
  const staging = `${out}.building`;
  try {
    await assertReplaceable(out, SITE_SIGNATURE);
  } catch (error) {
    console.error(`build: ${(error as Error).message}`);
    return 2;
  }
  await rm(staging, { recursive: true, force: true });
  try {
    await build({ root, outDir: staging });
  } catch (error) {
    await writeDataReport(out).catch(() => undefined);
    console.error(`\nbuild failed: ${(error as Error).message.split('\n')[0]}`);
    console.error(existsSync(out) ? `${path.relative(root, out) || out} was left exactly as it was.` : 'nothing was written.');
    await rm(staging, { recursive: true, force: true });
    return 1;
  }
  const report = await writeDataReport(out);
  if (report) console.log(`data report: ${report}`);
  try {
    await swapIn(staging, out);
  } catch (error) {
    console.error(`build: the new site could not replace ${out} (${(error as Error).message}); the previous one was kept`);
    await rm(staging, { recursive: true, force: true });
    return 1;
  }
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  await closeEmbeddedApis();
}
