/**
 * The memory of a build bounded where the defaults let it grow far past what the build keeps
 * (docs/performance.md, "Memory"):
 *
 * - glibc's malloc to a few arenas. glibc gives each thread that allocates an arena of its own (up
 *   to eight per core) and hands little of what is freed in them back to the system; the build's
 *   threads (libvips under sharp, Rolldown, libuv's pool) allocate and free hundreds of MB of
 *   pixels and modules, so without the bound a cold build at 1000 releases peaked at 1663 MiB,
 *   with it at 1119 MiB, for the same CPU time.
 * - V8's heap: its old space to 1.5 GiB, growing by 40 % of what is live before it collects, and a
 *   young generation of 2 × 32 MiB. Allowed 2 GiB or more (on this 24 GiB machine Node allows 4),
 *   V8 lets the old space grow to four times what is live before it collects, below that about
 *   1.8 times, and the pages it frees stay resident; for an old space this size it also gives the
 *   young generation 2 × 64 MiB. A cold build at 10,000 releases peaked at 1456 MiB without the
 *   size and at 1170 MiB with it; a warm one, rendering its feeds, at 1501 MiB with the size alone
 *   and at 1135 MiB with all three, its route generation 113 s → 122 s in that pair (the same code
 *   moved 100–122 s between runs) (docs/performance.md, "Memory").
 * - mimalloc (the allocator of Rolldown's and Astro's compiler's native code) to give memory back
 *   as soon as it is freed (`MIMALLOC_PURGE_DELAY=0`; its default waits, and at 10,000 releases
 *   left 245–263 MB resident in its arena through the whole build, 155 MB with the variable), and
 *   without transparent huge pages (`MIMALLOC_ALLOW_THP=0`): its arena asks for them, and a 4 KiB
 *   page it gives back inside a 2 MiB huge page stays resident until the kernel splits that page
 *   under memory pressure. At 10,000 releases the arena held 232 MiB of huge pages through a cold
 *   build's route generation and 145 MiB through a warm one's; without them the warm build's held
 *   51 MiB and its process peaked 105 MiB lower (1136 → 1031 MiB, sampled every 3 s).
 *
 * All are read once, when the process starts: the build replaces itself (`process.execve`: same
 * process id, same standard streams, no parent left behind) with the same command, the Node flags
 * and the variables set. An operator's own `MALLOC_ARENA_MAX`, `MIMALLOC_*` variable or V8 flag
 * (`--max-old-space-size` as a Node flag or in `NODE_OPTIONS`, the others as Node flags) wins.
 */
export const MALLOC_ARENA_MAX = '2';
/** mimalloc's options of a build, each unless the environment sets it. */
export const MIMALLOC_BOUNDS: Readonly<Record<string, string>> = { MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ALLOW_THP: '0' };
export const MAX_OLD_SPACE_MIB = 1536;
/** V8's heap flags of a build, each unless the operator gave it. */
export const HEAP_FLAGS: ReadonlyArray<readonly [name: string, value: number]> = [
  ['max-old-space-size', MAX_OLD_SPACE_MIB],
  ['max-semi-space-size', 32],
  ['heap-growing-percent', 40],
];

/** True on glibc Linux when the environment does not set MALLOC_ARENA_MAX already. */
export function needsArenaBound(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return false;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime !== undefined;
}

/** The mimalloc options the environment does not set already. */
export function missingMimallocBounds(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(MIMALLOC_BOUNDS).filter(([name]) => env[name] === undefined));
}

/** The heap flags neither Node's flags nor NODE_OPTIONS give already, as Node flags. */
export function missingHeapFlags(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  // V8 reads `--max_old_space_size` as well as `--max-old-space-size`.
  const isGiven = (name: string) => given.some((flag) => new RegExp(`^--${name.replaceAll('-', '[-_]')}(=|$)`).test(flag));
  return HEAP_FLAGS.filter(([name]) => !isGiven(name)).map(([name, value]) => `--${name}=${value}`);
}

/** Restarts this very command (same Node flags, script and arguments) with the bounds it lacks; else returns. */
export function boundBuildMemory(): void {
  // process.execve is there from Node 22.15 on, never on Windows.
  if (!process.execve) return;
  const arenas = needsArenaBound(process.env);
  const heapFlags = missingHeapFlags(process.execArgv, process.env);
  const mimalloc = missingMimallocBounds(process.env);
  if (!arenas && heapFlags.length === 0 && Object.keys(mimalloc).length === 0) return;
  // Node makes piped stdout/stderr non-blocking and puts them back only when it exits; replaced, it
  // never does, and the caller's pipe stayed non-blocking: the next writer to it (GNU time's report,
  // a CI step's log) failed with EAGAIN. So they are made blocking again first.
  for (const stream of [process.stdout, process.stderr])
    (stream as { _handle?: { setBlocking?(on: boolean): unknown } })._handle?.setBlocking?.(true);
  process.execve(process.execPath, [process.execPath, ...heapFlags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...(arenas && { MALLOC_ARENA_MAX }),
    ...mimalloc,
  });
}
