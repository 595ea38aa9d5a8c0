/**
 * `npm run archive -- --out DIR [--snapshot SNAPSHOT]`: an offline press
 * archive (offline-archive/archive.ts): DIR/ with the site that opens from the
 * folder and the snapshot it was built from, and DIR.zip. Without --snapshot
 * (or PRESSROOM_SNAPSHOT) it records one from PRESSROOM_API_URL, or from the
 * bundled demo press room. Holds the same locks as a build.
 */
import path from 'node:path';
import { loadDotEnv } from '../src/config/dot-env.ts';
import { upstreamOf } from '../src/config/environment.ts';
import { formatBytes } from '@pressroom-static/content-loaders';
import { closeDemoApis, demoRequested, requestDemo, startDemoApi } from '../src/config/demo-upstream.ts';
import { assertSnapshotFolder } from '@pressroom-static/content-loaders';
import { ARCHIVE_SIGNATURE, makeArchive } from '../offline-archive/archive.ts';
import { assertReplaceable } from '../src/output/staged-output.ts';
import { acquireLocks, buildLocks } from './build-lock.ts';
import { EXIT, integerFlag, parseCommandLine } from './cli.ts';
import { ARCHIVE_COMMAND } from './archive-spec.ts';

const root = path.resolve(import.meta.dirname, '..');
loadDotEnv(root);
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

async function main(): Promise<number> {
  const parsed = parseCommandLine(ARCHIVE_COMMAND);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  let waitMs: number;
  let snapshot: string | undefined;
  let demo = false;
  try {
    if (typeof values.out !== 'string') throw new Error('--out DIR is required (where the archive goes)');
    waitMs = integerFlag('wait', values.wait, 600, 0, 86_400) * 1000;
    const given = typeof values.snapshot === 'string' ? values.snapshot : process.env.PRESSROOM_SNAPSHOT;
    snapshot = given ? path.resolve(given) : undefined;
    if (values.demo) requestDemo(process.env);
    await assertReplaceable(path.resolve(values.out), ARCHIVE_SIGNATURE);
    if (snapshot) await assertSnapshotFolder(snapshot, typeof values.snapshot === 'string' ? '--snapshot' : 'PRESSROOM_SNAPSHOT');
    else demo = upstreamOf(process.env, { demo: demoRequested() }) === 'demo';
  } catch (error) {
    console.error(`archive: ${(error as Error).message}`);
    return EXIT.usage;
  }
  const out = path.resolve(values.out);
  process.chdir(root);
  const started = performance.now();
  let locks;
  try {
    locks = await acquireLocks(buildLocks(root, out), { waitMs, command: 'archive', log: (line) => console.log(line) });
  } catch (error) {
    console.error(`archive: ${(error as Error).message}`);
    return EXIT.failed;
  }
  try {
    const embedded = demo ? await startDemoApi() : undefined;
    if (embedded)
      console.log(`archive: DEMO: archiving the bundled demo press room ${embedded.emulator.pressroom.id} (a fictional company)`);
    const api = embedded && { apiUrl: embedded.apiUrl, pressroomId: embedded.pressroomId };
    const result = await makeArchive({ root, out, snapshot, demo, api, env: process.env, log: (line) => console.log(line) });
    console.log(
      `archive: ${result.files} files, ${result.pages} pages; ${result.zip} ${formatBytes(result.zipBytes)}; ${Math.round(performance.now() - started)} ms`,
    );
    return EXIT.ok;
  } catch (error) {
    console.error(`archive failed: ${(error as Error).message.split('\n')[0]}`);
    console.error('the previous archive, if any, was left as it was.');
    return EXIT.failed;
  } finally {
    await locks.release();
  }
}

try {
  process.exitCode = await main();
} finally {
  await closeDemoApis();
}
