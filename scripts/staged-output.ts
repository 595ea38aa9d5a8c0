/**
 * Output written beside its final place and swapped in only when complete, so
 * a run that cannot finish leaves the previous output exactly as it was.
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

/** Replaces `out` with the finished `staging` folder. */
export async function swapIn(staging: string, out: string): Promise<void> {
  const previous = `${out}.previous`;
  await rm(previous, { recursive: true, force: true });
  if (existsSync(out)) await rename(out, previous);
  await rename(staging, out);
  await rm(previous, { recursive: true, force: true });
}
