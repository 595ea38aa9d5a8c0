/**
 * A child process timed from outside: wall time, and its peak resident set
 * (the largest of the process tree's members, from GNU time) when
 * /usr/bin/time is there.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

export interface Measured {
  ms: number;
  /** Peak RSS in MiB; null when /usr/bin/time is missing. */
  peakRssMiB: number | null;
  /** stdout and stderr, without colour codes. */
  log: string;
}

const run = promisify(execFile);
const GNU_TIME = '/usr/bin/time';

export async function measure(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Measured> {
  const timed = existsSync(GNU_TIME);
  const started = performance.now();
  const { stdout, stderr } = await run(timed ? GNU_TIME : process.execPath, timed ? ['-v', process.execPath, ...args] : args, {
    ...options,
    maxBuffer: 1024 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  const log = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(log);
  return { ms, peakRssMiB: rss ? Math.round(Number(rss[1]) / 1024) : null, log };
}

/** Astro's "generating static routes … Completed in 297ms | 3.67s | 2m 58s" from a build log, in ms (NaN when absent). */
export function routeGenerationMs(log: string): number {
  const found = /generating static routes[\s\S]*?Completed in (?:(\d+)m\s+)?([\d.]+)(ms|s)\b/.exec(log);
  if (!found) return Number.NaN;
  const minutes = Number(found[1] ?? 0);
  const value = Number(found[2]);
  return minutes * 60_000 + (found[3] === 'ms' ? value : value * 1000);
}
