/**
 * An async iterable read to its end at once, in the background, while its values are handed over
 * in order as they are asked for: several lists can then be requested together yet handed over
 * one after the other. Reading stops with `close()`; a failure is thrown where its value would have
 * been handed over (never as an unhandled rejection).
 */
export interface EagerReader<T> extends AsyncIterable<T> {
  /** Stops reading (the source's own `return()` runs, so a pager drops what it has not sent) and waits for it. */
  close(): Promise<void>;
}

export function readEagerly<T>(source: AsyncIterable<T>): EagerReader<T> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: T[] = [];
  let finished = false;
  let failure: { error: unknown } | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  const reading = (async () => {
    try {
      while (!stopped) {
        const next = await iterator.next();
        if (next.done) break;
        queue.push(next.value);
        wake?.();
      }
    } catch (error) {
      failure = { error };
    } finally {
      finished = true;
      wake?.();
    }
  })();

  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) yield queue.shift()!;
        else if (failure) throw failure.error;
        else if (finished) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async close() {
      stopped = true;
      await iterator.return?.();
      await reading;
    },
  };
}
