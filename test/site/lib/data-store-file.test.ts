/** The data store read from its file at render time gives the pages what Astro's own store module gives them. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as devalue from 'devalue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataStore } from '../../../src/lib/data-store-file.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'data-store-file-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('readDataStore', () => {
  it('reads the collections of a store file written as Astro writes it (devalue), and says it did', async () => {
    const release = { id: '7', data: { id: 7, title: 'Café', tag_ids: [1, 2], when: '2026-11-01' }, digest: 'abc' };
    const collections = new Map([
      ['pressReleases', new Map([['7', release]])],
      ['tags', new Map()],
    ]);
    const file = path.join(tmp, 'data-store.json');
    await writeFile(file, devalue.stringify(collections));
    const lines: string[] = [];
    const read = readDataStore(file, (line) => lines.push(line));
    expect(read).toEqual(collections);
    expect(read.get('pressReleases')?.get('7')).toEqual(release);
    expect(lines).toEqual([
      expect.stringMatching(/^\[pressroom-static\] data store: .* read at render time from .*data-store\.json, not bundled$/),
    ]);
  });

  it('is empty when no store was written yet, as Astro gives it', () => {
    const lines: string[] = [];
    expect(readDataStore(path.join(tmp, 'missing.json'), (line) => lines.push(line))).toEqual(new Map());
    expect(lines).toEqual([]);
  });
});
