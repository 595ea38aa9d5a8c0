/**
 * The change report and the file lists it is made from, on small folders: what a CDN is told to
 * purge, and how a site's files are read back cheaply (size and mtime) without missing an edit.
 * The same over whole builds: test/build/no-change.ts.
 */
import { appendFile, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeReport, changeSummary, urlsOfFile } from '../../scripts/change-report.ts';
import { loadTree, readTree, storeTree, treeDifference, treeDigest, type Tree } from '../../scripts/output-tree.ts';
import { byPath, filesOf } from '../../src/lib/site-files.ts';

const tree = (files: Record<string, string>): Tree =>
  new Map(Object.entries(files).map(([name, sha256]) => [name, { sha256, size: 1, mtimeMs: 1 }]));

describe('the change report', () => {
  it('names each file by the URLs a CDN caches it under: a folder page as /folder/ and as its index.html', () => {
    expect(urlsOfFile('index.html')).toEqual(['/', '/index.html']);
    expect(urlsOfFile('820001-launch/index.html')).toEqual(['/820001-launch/', '/820001-launch/index.html']);
    expect(urlsOfFile('820001-launch/index.md')).toEqual(['/820001-launch/index.md']);
    expect(urlsOfFile('feeds/tags/r&d/rss.xml')).toEqual(['/feeds/tags/r%26d/rss.xml']);
    expect(urlsOfFile('pagefind/fragment/en_1a2b.pf_fragment')).toEqual(['/pagefind/fragment/en_1a2b.pf_fragment']);
  });

  it('lists added, changed and removed files by content hash, in path order, and every URL to purge once, absolute', () => {
    const before = tree({ 'index.html': 'a', 'old/index.html': 'b', 'rss.xml': 'c', 'same.txt': 'd' });
    const after = tree({ 'rss.xml': 'c2', 'index.html': 'a2', 'same.txt': 'd', 'new/index.html': 'e', 'a.txt': 'f' });
    const report = changeReport(before, after, 'https://press.example.com/');
    expect(report).toEqual({
      format: 'pressroom-changes/1',
      site: 'https://press.example.com',
      previous: true,
      from: treeDigest(before),
      to: treeDigest(after),
      counts: { added: 2, changed: 2, removed: 1 },
      added: [
        { path: 'a.txt', urls: ['/a.txt'], sha256: 'f' },
        { path: 'new/index.html', urls: ['/new/', '/new/index.html'], sha256: 'e' },
      ],
      changed: [
        { path: 'index.html', urls: ['/', '/index.html'], sha256: 'a2', previous: 'a' },
        { path: 'rss.xml', urls: ['/rss.xml'], sha256: 'c2', previous: 'c' },
      ],
      removed: [{ path: 'old/index.html', urls: ['/old/', '/old/index.html'], previous: 'b' }],
      purge: [
        'https://press.example.com/',
        'https://press.example.com/a.txt',
        'https://press.example.com/index.html',
        'https://press.example.com/new/',
        'https://press.example.com/new/index.html',
        'https://press.example.com/old/',
        'https://press.example.com/old/index.html',
        'https://press.example.com/rss.xml',
      ],
    });
    expect(changeSummary(report)).toBe('2 added, 2 changed, 1 removed (8 URLs to purge)');
    // The same change gives the same bytes (no clock in it); an unchanged site reports nothing.
    expect(JSON.stringify(changeReport(before, after, 'https://press.example.com'))).toBe(JSON.stringify(report));
    const nothing = changeReport(after, after, 'https://press.example.com');
    expect([nothing.added, nothing.changed, nothing.removed, nothing.purge]).toEqual([[], [], [], []]);
    // The digests name whole sites: a deploy compares `from` with what the bucket holds.
    expect(report.from).not.toBe(report.to);
    expect([nothing.from, nothing.to]).toEqual([report.to, report.to]);
    expect(changeSummary(nothing)).toBe('no file changed');
    // No previous site: everything is added, and the report says there was nothing to compare with.
    const first = changeReport(undefined, after, 'https://press.example.com');
    expect(first.previous).toBe(false);
    expect(first.counts).toEqual({ added: 5, changed: 0, removed: 0 });
  });

  it("purges under the site URL's path when the site is served under one", () => {
    const report = changeReport(tree({ 'index.html': 'a' }), tree({ 'index.html': 'b', 'rss.xml': 'c' }), 'https://example.com/press/');
    expect(report.site).toBe('https://example.com/press');
    expect(report.purge).toEqual([
      'https://example.com/press/',
      'https://example.com/press/index.html',
      'https://example.com/press/rss.xml',
    ]);
  });
});

describe("a site's file list", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'output-tree-'));
    await mkdir(path.join(dir, 'a'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<p>home</p>');
    await writeFile(path.join(dir, 'a', 'index.html'), '<p>a</p>');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is read back from size and mtime alone, and hashed again wherever either moved: an edit, a cut, an added or deleted file is always seen', async () => {
    const first = await readTree(dir);
    expect([...first.tree.keys()]).toEqual(['a/index.html', 'index.html']);
    expect(first.rehashed).toBe(2);
    const recorded = loadTree(JSON.parse(JSON.stringify(storeTree(first.tree))));
    expect(recorded).toEqual(first.tree);

    const again = await readTree(dir, recorded);
    expect(again.rehashed).toBe(0);
    expect(treeDifference(recorded, again.tree)).toBeUndefined();

    // Touched with the same bytes: read again, still the same file.
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(dir, 'index.html'), later, later);
    const touched = await readTree(dir, recorded);
    expect(touched.rehashed).toBe(1);
    expect(treeDifference(recorded, touched.tree)).toBeUndefined();

    await appendFile(path.join(dir, 'a', 'index.html'), ' ');
    expect(treeDifference(recorded, (await readTree(dir, recorded)).tree)).toBe('a/index.html was modified');
    await writeFile(path.join(dir, 'extra.txt'), 'x');
    await rm(path.join(dir, 'a', 'index.html'));
    expect(treeDifference(recorded, (await readTree(dir, recorded)).tree)).toBe('a/index.html is missing');
    await writeFile(path.join(dir, 'a', 'index.html'), '<p>a</p>');
    expect(treeDifference(recorded, (await readTree(dir, recorded)).tree)).toBe('extra.txt was added');
    expect((await readTree(path.join(dir, 'no-such-folder'))).tree.size).toBe(0);
  });

  it('lists regular files in path order, folders and links left out, whatever order the folders are read in', async () => {
    const site = await mkdtemp(path.join(os.tmpdir(), 'output-tree-walk-'));
    try {
      for (const file of ['a-b/x.html', 'a/b/c.html', 'a/b.html', 'a.html', 'Z.html', 'é/i.html', 'pagefind/f/1.pf'])
        await mkdir(path.dirname(path.join(site, file)), { recursive: true }).then(() => writeFile(path.join(site, file), file));
      await mkdir(path.join(site, 'empty'));
      await symlink(path.join(site, 'a.html'), path.join(site, 'link.html'));
      const listed = await filesOf(site);
      expect(listed).toEqual(['Z.html', 'a-b/x.html', 'a.html', 'a/b.html', 'a/b/c.html', 'pagefind/f/1.pf', 'é/i.html']);
      expect(listed).toEqual([...listed].sort(byPath));
      expect(await filesOf(path.join(site, 'no-such-folder'))).toEqual([]);
      await expect(filesOf(path.join(site, 'a.html'))).rejects.toThrow(/ENOTDIR/);
    } finally {
      await rm(site, { recursive: true, force: true });
    }
  });

  it('refuses a malformed stored list', () => {
    expect(() => loadTree({ 'index.html': ['abc', 1] })).toThrow('the entry of index.html is malformed');
    expect(() => loadTree([])).toThrow('the file list is not an object');
  });
});
