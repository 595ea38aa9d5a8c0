/** `--workers LIST` of the workers benchmark: how many worker processes each queue run starts. */
export const DEFAULT_WORKER_COUNTS = [1, 2, 4];

/** `1,2,4` → [1, 2, 4] (sorted, distinct, 1 included: the others are compared with it); undefined when the list is not whole numbers 1–16. */
export function parseWorkerCounts(value: unknown): number[] | undefined {
  if (value === undefined) return DEFAULT_WORKER_COUNTS;
  if (typeof value !== 'string' || !/^\s*\d+(\s*,\s*\d+)*\s*$/.test(value)) return undefined;
  const counts = value.split(',').map((n) => Number(n.trim()));
  if (counts.some((n) => n < 1 || n > 16)) return undefined;
  return [...new Set([1, ...counts])].sort((a, b) => a - b);
}
