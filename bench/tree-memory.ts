/**
 * The memory a process and everything it started hold at once: the sum of
 * their resident sets, sampled from /proc, is what a machine or a container's
 * memory limit has to fit. GNU time's "maximum resident set size" is the
 * largest single process instead, which at scale L hid Pagefind's indexer
 * (a process of its own) running beside the build's.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface TreeMemory {
  /** Peak of the summed RSS of the tree, MiB; null where /proc is not there. */
  peakMiB: number | null;
  /** The largest peak (VmHWM) of any one process of the tree, MiB; null where /proc is not there. */
  largestProcessMiB: number | null;
}

/** Samples `pid`'s tree every `everyMs` until `stop()`, which gives the peaks. */
export function watchTreeMemory(pid: number, everyMs = 200): { stop(): Promise<TreeMemory> } {
  let peakKiB = 0;
  let largestKiB = 0;
  let seen = false;
  const sample = async () => {
    let sum = 0;
    for (const member of await descendants(pid)) {
      const status = await readFile(`/proc/${member}/status`, 'utf8').catch(() => '');
      const rss = kibOf(status, 'VmRSS');
      if (rss === null) continue;
      seen = true;
      sum += rss;
      largestKiB = Math.max(largestKiB, kibOf(status, 'VmHWM') ?? rss);
    }
    peakKiB = Math.max(peakKiB, sum);
  };
  let running = sample();
  const timer = setInterval(() => {
    running = running.then(sample);
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      const mib = (kib: number) => (seen ? Math.round(kib / 1024) : null);
      return { peakMiB: mib(peakKiB), largestProcessMiB: mib(largestKiB) };
    },
  };
}

/** `pid` and every process below it, from each thread's `children` list. */
async function descendants(pid: number): Promise<number[]> {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    out.push(next);
    const threads = await readdir(`/proc/${next}/task`).catch(() => [] as string[]);
    for (const thread of threads) {
      const children = await readFile(`/proc/${next}/task/${thread}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ')) if (child.trim()) queue.push(Number(child));
    }
  }
  return out;
}

function kibOf(status: string, field: string): number | null {
  const found = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return found ? Number(found[1]) : null;
}
