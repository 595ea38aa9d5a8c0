/**
 * A copy of a string that keeps nothing else alive. V8 makes a substring a view of the whole string
 * it was cut from, and a concatenation a tree of its parts: a summary sliced from a release body
 * keeps the whole body, and HTML written piece by piece keeps every piece and what the pieces were
 * cut from. For what a build keeps until it ends (every release's summary and feed content), that
 * was most of the heap at 10,000 releases.
 */
export function detached(text: string): string {
  // `slice` flattens `' ' + text` into one new string first; what it returns is a view of that copy alone.
  return (' ' + text).slice(1);
}
