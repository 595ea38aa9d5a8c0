/**
 * Release bodies kept out of Astro's data store (`bodyDir`): one file per
 * body, named by its SHA-256, written once; entries hold the path; the page
 * reads the very HTML the entry would have held; unused files age out.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBodyFiles, readBody, type StoredBody } from '../../content-loaders/html/body-files.ts';
import { createLoaderRuntime } from '../../content-loaders/runtime.ts';
import { useEmulator } from '../helpers/emulator.ts';
import { loadAll } from '../helpers/loader-context.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'body-files-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const DAY = 24 * 60 * 60 * 1000;

describe('body files', () => {
  it('keep each body in a file named by its SHA-256, written once however often it is stored', async () => {
    const dir = path.join(tmp, 'once');
    const html = '<p>Grüße aus Amsterdam – 2026</p>';
    const bodies = createBodyFiles(dir);
    const [first, second] = await Promise.all([bodies.store(html), bodies.store(html)]);
    const file = path.join(dir, `${sha256(html)}.html`);
    expect(first).toEqual({ file });
    expect(second).toEqual({ file });
    expect(await readFile(file, 'utf8')).toBe(html);
    expect(await readBody(first)).toBe(html);

    // Another build finds it there and leaves it as it is (no temp files left either).
    const yesterday = new Date(Math.floor(Date.now() / 1000) * 1000 - DAY);
    await utimes(file, yesterday, yesterday);
    await createBodyFiles(dir).store(html);
    expect((await stat(file)).mtime).toEqual(yesterday);
    expect(await readdir(dir)).toEqual([path.basename(file)]);
  });

  it('keep an empty body inline', async () => {
    const dir = path.join(tmp, 'empty');
    expect(await createBodyFiles(dir).store('')).toEqual({ html: '' });
    expect(existsSync(dir)).toBe(false);
    expect(await readBody({ html: '<p>inline</p>' })).toBe('<p>inline</p>');
  });

  it('name the file and what to do when a body cannot be read', async () => {
    const file = path.join(tmp, 'gone', `${sha256('x')}.html`);
    await expect(readBody({ file })).rejects.toThrow(
      `release body ${file} cannot be read (ENOENT); the bodyDir folder must stay while the site renders: build again`,
    );
  });

  it('remove the files no build has used for the given age, and keep those this build stored', async () => {
    const dir = path.join(tmp, 'prune');
    const bodies = createBodyFiles(dir);
    const kept = (await bodies.store('<p>kept</p>')) as { file: string };
    const old = path.join(dir, `${sha256('<p>old</p>')}.html`);
    const recent = path.join(dir, `${sha256('<p>recent</p>')}.html`);
    await writeFile(old, '<p>old</p>');
    await writeFile(recent, '<p>recent</p>');
    const longAgo = new Date(Date.now() - 40 * DAY);
    await utimes(old, longAgo, longAgo);
    await utimes(kept.file, longAgo, longAgo);
    expect(await bodies.prune(30 * DAY)).toEqual({ files: 1, bytes: '<p>old</p>'.length });
    expect((await readdir(dir)).sort()).toEqual([path.basename(kept.file), path.basename(recent)].sort());
    // The body this build used is marked fresh: the next build's prune keeps it too.
    expect(Date.now() - (await stat(kept.file)).mtimeMs).toBeLessThan(DAY);
  });

  it('after a failed build, remove the files that build wrote and keep those it found', async () => {
    const dir = path.join(tmp, 'failed');
    const earlier = (await createBodyFiles(dir).store('<p>from an earlier build</p>')) as { file: string };
    const failed = createBodyFiles(dir);
    await failed.store('<p>from an earlier build</p>');
    const fresh = await Promise.all(['<p>one</p>', '<p>two</p>'].map((html) => failed.store(html)));
    expect(await failed.discardWritten()).toEqual({ files: 2, bytes: '<p>one</p>'.length + '<p>two</p>'.length });
    expect(await readdir(dir)).toEqual([path.basename(earlier.file)]);
    for (const body of fresh) expect(existsSync((body as { file: string }).file)).toBe(false);
  });
});

describe('release entries with bodyDir', () => {
  const api = useEmulator({ frozenClock: true, scale: 8 });

  it('hold the path of the body file, not the body; the file holds what the entry would have held', async () => {
    const base = { apiUrl: api().url, pressroomId: api().pressroom.id };
    const inline = await loadAll(await createLoaderRuntime(base), {}, ['pressReleases']);
    const bodyDir = path.join(tmp, 'entries');
    const kept = await loadAll(await createLoaderRuntime({ ...base, bodyDir }), {}, ['pressReleases']);

    const inlineBodies = new Map(
      [...inline.stores.pressReleases.map].map(([id, e]) => [id, (e.data.body as StoredBody & { html: string }).html]),
    );
    expect([...inlineBodies.values()].filter((html) => html.length > 100).length).toBeGreaterThan(4);
    for (const [id, entry] of kept.stores.pressReleases.map) {
      const body = entry.data.body as StoredBody;
      expect(body, id).toEqual({ file: path.join(bodyDir, `${sha256(inlineBodies.get(id)!)}.html`) });
      expect(await readBody(body)).toBe(inlineBodies.get(id));
      expect(JSON.stringify(entry.data)).not.toContain(inlineBodies.get(id)!.slice(0, 40));
    }
  });

  it('write a body file again when it is gone, though the entry did not change', async () => {
    const base = { apiUrl: api().url, pressroomId: api().pressroom.id };
    const bodyDir = path.join(tmp, 'again');
    const first = await loadAll(await createLoaderRuntime({ ...base, bodyDir }), {}, ['pressReleases']);
    await rm(bodyDir, { recursive: true });
    const second = await loadAll(await createLoaderRuntime({ ...base, bodyDir }), first.stores, ['pressReleases']);
    expect(second.logs.join('\n')).toMatch(/pressReleases: \d+ entries \(0 new, 0 changed, \d+ unchanged, 0 removed\)/);
    for (const entry of second.stores.pressReleases.map.values()) {
      const body = entry.data.body as { file: string };
      expect(existsSync(body.file), body.file).toBe(true);
    }
  });
});
