/**
 * A Node child process timed from outside: wall time, and the peak memory of
 * it and every process it starts (tree-memory.ts).
 */
import { execFile } from 'node:child_process';
import { conditionFlags } from '../src/config/source-condition.ts';
import { watchTreeMemory, type TreeMemory } from './tree-memory.ts';

export interface Measured {
  ms: number;
  /** Peak of the process tree's summed RSS, MiB; null where it cannot be read (no /proc). */
  peakRssMiB: number | null;
  /** The largest peak of any one process of the tree, MiB (what GNU time reports). */
  largestProcessMiB: number | null;
  /** stdout and stderr, without colour codes. */
  log: string;
}

/** Runs `node …args` (with this process's module conditions); rejects, with its output, when it fails. */
export async function measure(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Measured> {
  const started = performance.now();
  let memory: ReturnType<typeof watchTreeMemory> | undefined;
  const output = new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [...conditionFlags(), ...args],
      { ...options, maxBuffer: 1024 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(Object.assign(error, { stdout, stderr })) : resolve({ stdout, stderr })),
    );
    if (child.pid !== undefined) memory = watchTreeMemory(child.pid);
  });
  let peaks: TreeMemory | undefined;
  let result: { stdout: string; stderr: string };
  try {
    result = await output;
  } finally {
    // Stopped once, whether the build succeeded or not.
    peaks = await memory?.stop();
  }
  const ms = performance.now() - started;
  const { stdout, stderr } = result;
  const log = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  return { ms, peakRssMiB: peaks?.peakMiB ?? null, largestProcessMiB: peaks?.largestProcessMiB ?? null, log };
}

/** Astro's "generating static routes … Completed in 297ms | 3.67s | 2m 58s" from a build log, in ms (NaN when absent). */
export function routeGenerationMs(log: string): number {
  const found = /generating static routes[\s\S]*?Completed in (?:(\d+)m\s+)?([\d.]+)(ms|s)\b/.exec(log);
  if (!found) return Number.NaN;
  const minutes = Number(found[1] ?? 0);
  const value = Number(found[2]);
  return minutes * 60_000 + (found[3] === 'ms' ? value : value * 1000);
}
