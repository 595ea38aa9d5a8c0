/**
 * Builds a press room into the folder given as argument, and its data report beside it (run by
 * global-setup.ts in a child process, so the build's globals, environment and
 * embedded API stay out of the test runner). Exits explicitly: a failed build
 * must not hang on the emulator's open server.
 *
 * With no PRESSROOM_API_URL, the demo data is served as a real API would be (the bundled-demo
 * path marks every page noindex and "demo", which these tests of an indexable press room must
 * not see), and the build's clock is the demo's own instant, as a demo build's is.
 */
import path from 'node:path';
import { build } from 'astro';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { startEmulator } from '../../emulator/server.ts';
import { writeDataReport } from '../../scripts/data-report.ts';

const outDir = process.argv[2];
/** Another Astro config file (a test's pressroom() options), instead of the project's astro.config.mjs. */
const configFile = process.argv[3];
if (!outDir) {
  console.error('usage: node --conditions=source test/site/build-site.ts <outDir> [astro config file]');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..', '..');
if (!process.env.PRESSROOM_API_URL) {
  const api = await startEmulator({ frozenClock: true });
  process.env.PRESSROOM_API_URL = api.url;
  process.env.PRESSROOM_ID = String(api.pressroom.id);
  process.env.SOURCE_DATE_EPOCH ??= String(Math.floor(Date.parse(DEMO_NOW) / 1000));
}
try {
  await build({
    root,
    outDir: path.resolve(outDir),
    logLevel: 'warn',
    ...(configFile ? { configFile: path.relative(root, path.resolve(configFile)) } : {}),
  });
  await writeDataReport(path.resolve(outDir));
  process.exit(0);
} catch (error) {
  console.error(`build failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
}
