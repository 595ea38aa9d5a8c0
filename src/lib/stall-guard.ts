/**
 * Work that can no longer finish, turned into an error. A promise that waits on a child process
 * which died (Pagefind's service, a worker) may never settle: its client keeps no handle open, the
 * event loop runs dry, and Node ends the process with "unsettled top-level await" (exit 13),
 * nothing said and nothing cleaned up. When the loop runs dry while guarded work waits, nothing
 * is left that could settle it: the guard rejects it with the caller's error instead, and the
 * caller's own failure path runs (message, previous site kept, staging folder removed).
 *
 * Guards nest (the build guards Astro's build, the search index guards each Pagefind bundle
 * inside it): each time the loop runs dry only the newest waiting guard gives up, so the error
 * that names the part which stopped is the one that reaches the outer guard's caller; an outer
 * guard gives up only if the loop runs dry again.
 */

/** What the stalled guards do, newest last. */
const waiting: Array<() => void> = [];

function onDrained(): void {
  waiting.pop()?.();
  // Node emits beforeExit again only after a turn of the loop: one more, for the guards still waiting.
  if (waiting.length > 0) setImmediate(() => undefined);
}

/** `work`'s outcome, or `stalled()` as its error once the event loop runs dry while it waits. */
export async function settledOrStalled<T>(work: Promise<T>, stalled: () => Error): Promise<T> {
  let giveUp!: () => void;
  const drained = new Promise<never>((_, reject) => {
    giveUp = () => reject(stalled());
  });
  waiting.push(giveUp);
  if (waiting.length === 1) process.on('beforeExit', onDrained);
  try {
    return await Promise.race([work, drained]);
  } finally {
    const at = waiting.indexOf(giveUp);
    if (at !== -1) waiting.splice(at, 1);
    if (waiting.length === 0) process.off('beforeExit', onDrained);
  }
}
