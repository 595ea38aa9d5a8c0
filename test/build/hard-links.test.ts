/** The kept files of a partial build, linked on a thread of their own while the build renders. */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIntoInBackground } from '../../scripts/assembly/hard-links.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'hard-links-'));
  for (const file of ['index.html', 'a/index.html', 'a/b/c.txt', '_media/x.webp'])
    await mkdir(path.dirname(path.join(tmp, 'from', file)), { recursive: true }).then(() => writeFile(path.join(tmp, 'from', file), file));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('linkIntoInBackground', () => {
  it('links every file into its folder, sharing the inode, and leaves a file the build wrote as it is', async () => {
    const to = path.join(tmp, 'to');
    await mkdir(path.join(to, 'a'), { recursive: true });
    await writeFile(path.join(to, 'a/index.html'), 'rendered now');
    await linkIntoInBackground(path.join(tmp, 'from'), to, ['index.html', 'a/index.html', 'a/b/c.txt', '_media/x.webp']);
    for (const file of ['index.html', 'a/b/c.txt', '_media/x.webp']) {
      const [linked, source] = await Promise.all([stat(path.join(to, file)), stat(path.join(tmp, 'from', file))]);
      expect(linked.ino, file).toBe(source.ino);
    }
    expect(await readFile(path.join(to, 'a/index.html'), 'utf8')).toBe('rendered now');
  });

  it('rejects with the error of the first file it cannot link', async () => {
    const error = await linkIntoInBackground(path.join(tmp, 'from'), path.join(tmp, 'to2'), ['index.html', 'gone.html']).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect((error as Error).message).toContain('gone.html');
  });
});
