/**
 * Builds the press room into the folder given as argument, and its data report beside it (run by
 * global-setup.ts in a child process, so the build's globals, environment and
 * embedded API stay out of the test runner). Exits explicitly: a failed build
 * must not hang on the embedded emulator's open server.
 */
import path from 'node:path';
import { build } from 'astro';
import { writeDataReport } from '../../scripts/data-report.ts';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node test/site/build-site.ts <outDir>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..', '..');
try {
  await build({ root, outDir: path.resolve(outDir), logLevel: 'warn' });
  await writeDataReport(path.resolve(outDir));
  process.exit(0);
} catch (error) {
  console.error(`build failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
}
