/** A site's tree read on a thread of its own, and put together from a listing that left a folder out. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, readTreeInBackground, subtree, withSubtree } from '../../scripts/output-tree.ts';

let site: string;
beforeAll(async () => {
  site = await mkdtemp(path.join(os.tmpdir(), 'output-tree-'));
  // Names around `pagefind/` in code-unit order: `pagefind-x`, `pagefind.txt` and `pagefinder/` sort on either side of its files.
  for (const file of [
    'index.html',
    'a/b.html',
    'pagefind-x/y.js',
    'pagefind.txt',
    'pagefind/en/p.json',
    'pagefind/words/1.json',
    'pagefinder/z',
    'zz.txt',
  ])
    await mkdir(path.dirname(path.join(site, file)), { recursive: true }).then(() => writeFile(path.join(site, file), file));
});
afterAll(() => rm(site, { recursive: true, force: true }));

describe('readTreeInBackground', () => {
  it('reads the tree readTree reads, and with a folder left out and put back, the same tree in the same order', async () => {
    const whole = (await readTree(site)).tree;
    expect([...(await readTreeInBackground(site)).tree]).toEqual([...whole]);

    const without = (await readTreeInBackground(site, whole, { skipFolder: 'pagefind' })).tree;
    expect([...without.keys()].some((name) => name.startsWith('pagefind/'))).toBe(false);
    const search = (await readTree(path.join(site, 'pagefind'), subtree(whole, 'pagefind'))).tree;
    expect([...withSubtree(without, 'pagefind', search)]).toEqual([...whole]);
  });

  it('rejects with the reason when the folder cannot be listed', async () => {
    await expect(readTreeInBackground(path.join(site, 'a', 'b.html'))).rejects.toThrow(/ENOTDIR/);
  });
});
