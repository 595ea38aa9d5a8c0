/**
 * Results of several search bundles, each already newest first, as one list
 * newest first, loading only what the merge needs: a result's date is in its
 * data, so each bundle's next result is loaded to compare, and a page of
 * results costs its own loads plus at most one per bundle.
 */
import type { ResultView } from './backend.ts';

export function mergeNewestFirst<R>(lists: R[][], load: (result: R) => Promise<ResultView>): Array<() => Promise<ResultView>> {
  const total = lists.reduce((n, list) => n + list.length, 0);
  const cursors = lists.map(() => 0);
  const loaded = new Map<R, Promise<ResultView>>();
  const viewOf = (result: R) => {
    let view = loaded.get(result);
    if (!view) loaded.set(result, (view = load(result)));
    return view;
  };
  const merged: Array<Promise<ResultView>> = [];
  const step = async () => {
    let best = -1;
    let bestTime = -Infinity;
    for (const [i, list] of lists.entries()) {
      const head = list[cursors[i]!];
      if (head === undefined) continue;
      const time = Date.parse((await viewOf(head)).date ?? '');
      const t = Number.isNaN(time) ? -Infinity : time;
      if (best === -1 || t > bestTime) [best, bestTime] = [i, t];
    }
    merged.push(viewOf(lists[best]![cursors[best]!++]!));
  };
  // Steps run one after another (each depends on the last), however many results the list asks for at once.
  let chain: Promise<void> = Promise.resolve();
  let scheduled = 0;
  const resultAt = (i: number): Promise<ResultView> => {
    while (scheduled <= i) {
      scheduled++;
      chain = chain.then(step);
    }
    return chain.then(() => merged[i]!);
  };
  return Array.from({ length: total }, (_, i) => () => resultAt(i));
}
