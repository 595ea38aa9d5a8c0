/**
 * The files a build keeps beside its output (fingerprint, route record, change and data reports)
 * are written whole or not at all: into a temporary file of this process, then renamed over the old one.
 */
import { rename, writeFile } from 'node:fs/promises';

export async function writeJsonAtomically(file: string, value: unknown, indent?: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, indent)}\n`);
  await rename(tmp, file);
}
