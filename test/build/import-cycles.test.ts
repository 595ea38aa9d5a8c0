/**
 * No module imports itself back through others, not even for a type: a cycle makes the order
 * modules are evaluated in matter, and hides which part depends on which. Shared types live in a
 * module of their own (content-loaders/client/types.ts, image-pipeline/source-types.ts,
 * src/lib/data-types.ts, deploy/purge/types.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFiles, projectRoot } from '../helpers/code-files.ts';

/** Relative imports and re-exports, type-only ones included. */
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await codeFiles()) {
    const text = await readFile(path.join(projectRoot, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)))
      .filter((target) => existsSync(path.join(projectRoot, target)));
    graph.set(file, targets);
  }
  return graph;
}

/** The first cycle found from each file, as `a → b → a`. */
function cycles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  const done = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      const loop = trail.slice(at);
      const start = loop.indexOf([...loop].sort()[0]!);
      found.add([...loop.slice(start), ...loop.slice(0, start), loop[start]].join(' → '));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) walk(file, []);
  return [...found].sort();
}

describe('imports', () => {
  it('form no cycle, type-only imports included', async () => {
    expect(cycles(await importGraph())).toEqual([]);
  });
});
