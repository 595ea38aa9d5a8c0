/**
 * What the publish-to-live benchmark reads off a build and checks after it: how many routes a
 * partial build rendered (its `build: partial: N of M routes rendered` line), and whether the
 * site it left holds the same bytes as a forced full build of the same upstream state.
 */
import { readTree } from '../scripts/output-tree.ts';

export interface RenderedRoutes {
  /** Routes the build rendered. */
  rendered: number;
  /** Routes of the site. */
  total: number;
  /** False when the build rendered in full (then rendered = total is not known from the log: both 0). */
  partial: boolean;
  /** The build's one line saying what it rendered and why. */
  line: string;
}

/** The build's plan line: `build: partial: N of M routes rendered (…)` or `build: rendering in full: …`. */
export function renderedRoutes(log: string): RenderedRoutes | undefined {
  const partial = /^build: partial: (\d+) of (\d+) routes rendered.*$/m.exec(log);
  if (partial) return { rendered: Number(partial[1]), total: Number(partial[2]), partial: true, line: partial[0] };
  const full = /^build: rendering(?: in full)?: .*$/m.exec(log);
  if (full) return { rendered: 0, total: 0, partial: false, line: full[0] };
  return undefined;
}

/** A built site against a `--force` build of the same upstream state: how long that took, and the paths that differ. */
export interface ForcedComparison {
  forcedMs: number;
  differing: string[];
}

/** The site paths whose bytes differ between two built sites, or that only one of them has; sorted. */
export async function siteDifferences(a: string, b: string): Promise<string[]> {
  const [{ tree: left }, { tree: right }] = await Promise.all([readTree(a), readTree(b)]);
  const differing = new Set<string>();
  for (const [name, file] of left) if (right.get(name)?.sha256 !== file.sha256) differing.add(name);
  for (const name of right.keys()) if (!left.has(name)) differing.add(name);
  return [...differing].sort();
}
