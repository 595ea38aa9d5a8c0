/**
 * Hands back to the system the memory a finished stage of the build freed.
 * V8 keeps the pages of a collected heap resident, for its own reuse, until
 * memory runs short; a "last resort" collection (what V8 does just before it
 * would run out) releases them. At 10,000 releases the build's process went
 * from 1321 to 779 MiB this way once its pages were written, before Pagefind's
 * indexer starts beside it.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export function releaseFreedMemory(): { beforeMiB: number; afterMiB: number } {
  const beforeMiB = residentMiB();
  // Exposes `gc` to contexts made from now on (Node's own --expose-gc, set late); the build's code never sees it.
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as Collect)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return { beforeMiB, afterMiB: residentMiB() };
}

function residentMiB(): number {
  return Math.round(process.memoryUsage.rss() / 2 ** 20);
}
