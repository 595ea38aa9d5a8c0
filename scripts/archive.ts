/**
 * `npm run archive -- --out DIR [--snapshot SNAPSHOT]`: an offline press
 * archive (offline-archive/archive.ts): DIR/ with the site that opens from the
 * folder and the snapshot it was built from, and DIR.zip. Without --snapshot
 * (or PRESSROOM_SNAPSHOT) it records one from PRESSROOM_API_URL, or from the
 * bundled demo press room.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDotEnv } from '../content-loaders/dot-env.ts';
import { formatBytes } from '../content-loaders/format-bytes.ts';
import { closeEmbeddedApis, needsEmbeddedApi, startEmbeddedApi } from '../emulator/embedded.ts';
import { makeArchive } from '../offline-archive/archive.ts';

const USAGE = 'usage: npm run archive -- --out DIR [--snapshot SNAPSHOT]';
const root = path.resolve(import.meta.dirname, '..');
loadDotEnv(root);
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, snapshot: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !values.out) {
    console.error(values.help ? USAGE : `archive: --out is required\n${USAGE}`);
    return values.help ? 0 : 2;
  }
  const out = path.resolve(values.out);
  const snapshot = values.snapshot ?? process.env.PRESSROOM_SNAPSHOT;
  const started = performance.now();
  try {
    if (!snapshot && needsEmbeddedApi(process.env)) {
      const embedded = await startEmbeddedApi(process.env);
      console.log(`archive: no PRESSROOM_API_URL, archiving the demo press room ${embedded.emulator.pressroom.id}`);
    }
    const result = await makeArchive({ root, out, snapshot: snapshot && path.resolve(snapshot), env: process.env, log: (line) => console.log(line) });
    console.log(`archive: ${result.files} files, ${result.pages} pages; ${result.zip} ${formatBytes(result.zipBytes)}; ${Math.round(performance.now() - started)} ms`);
    return 0;
  } catch (error) {
    console.error(`archive failed: ${(error as Error).message.split('\n')[0]}`);
    console.error('the previous archive, if any, was left as it was.');
    return 1;
  }
}

try {
  process.exitCode = await main();
} finally {
  await closeEmbeddedApis();
}
