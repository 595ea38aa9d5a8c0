/**
 * The data policy's machine-readable report of a build (fields dropped, items
 * skipped, non-public items kept out, the next embargo lift), written beside
 * the output folder, never inside it: `dist` → `dist.data-report.json`.
 * Written for failed builds too (a strict build says why it stopped).
 */
import { startedBuildRuntime } from '../src/config/build-runtime.ts';
import { writeJsonAtomically } from './json-beside.ts';

export const dataReportPath = (out: string): string => `${out}.data-report.json`;

/**
 * Writes the report of this process's build, if the loaders ran; returns its path and the one-line
 * summary (fields dropped, items skipped, non-public items kept out), or undefined.
 */
export async function writeDataReport(out: string): Promise<{ file: string; summary: string } | undefined> {
  const runtime = await startedBuildRuntime()?.catch(() => undefined);
  if (!runtime) return undefined;
  const file = dataReportPath(out);
  await writeJsonAtomically(file, runtime.issues.report(), 2);
  return { file, summary: runtime.issues.summary() };
}
