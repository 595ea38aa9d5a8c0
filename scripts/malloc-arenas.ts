/**
 * glibc's malloc bounded to a few arenas for the build. glibc gives each thread that allocates an
 * arena of its own (up to eight per core) and hands little of what is freed in them back to the
 * system; the build's threads (libvips under sharp, Rolldown, libuv's pool) allocate and free
 * hundreds of MB of pixels and modules, so without the bound a cold build at 1000 releases peaked
 * at 1663 MiB, with it at 1119 MiB, for the same CPU time (docs/performance.md, "Memory").
 * glibc reads `MALLOC_ARENA_MAX` once, when the process starts: the build replaces itself
 * (`process.execve`: same process id, same standard streams, no parent left behind) with the same
 * command and the variable set.
 */
export const MALLOC_ARENA_MAX = '2';

/** True on glibc Linux when the environment does not set MALLOC_ARENA_MAX already (an operator's own value wins). */
export function needsArenaBound(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return false;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime !== undefined;
}

/** Restarts this very command (same Node flags, script and arguments) with MALLOC_ARENA_MAX set, when it is needed; else returns. */
export function boundMallocArenas(): void {
  // process.execve is there from Node 22.15 on, never on Windows.
  if (!process.execve || !needsArenaBound(process.env)) return;
  // Node makes piped stdout/stderr non-blocking and puts them back only when it exits; replaced, it
  // never does, and the caller's pipe stayed non-blocking: the next writer to it (GNU time's report,
  // a CI step's log) failed with EAGAIN. So they are made blocking again first.
  for (const stream of [process.stdout, process.stderr])
    (stream as { _handle?: { setBlocking?(on: boolean): unknown } })._handle?.setBlocking?.(true);
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX,
  });
}
