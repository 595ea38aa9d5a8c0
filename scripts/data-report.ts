/**
 * The data policy's machine-readable report of a build (fields dropped, items
 * skipped, non-public items kept out, the next embargo lift), written beside
 * the output folder, never inside it: `dist` → `dist.data-report.json`.
 * Written for failed builds too (a strict build says why it stopped).
 */
import { rename, writeFile } from 'node:fs/promises';
import { startedBuildRuntime } from '../src/config/build-runtime.ts';

export const dataReportPath = (out: string): string => `${out}.data-report.json`;

/**
 * Writes the report of this process's build, if the loaders ran; returns its path and the one-line
 * summary (fields dropped, items skipped, non-public items kept out), or undefined.
 */
export async function writeDataReport(out: string): Promise<{ file: string; summary: string } | undefined> {
  const runtime = await startedBuildRuntime()?.catch(() => undefined);
  if (!runtime) return undefined;
  const file = dataReportPath(out);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(runtime.issues.report(), null, 2)}\n`);
  await rename(tmp, file);
  return { file, summary: runtime.issues.summary() };
}
