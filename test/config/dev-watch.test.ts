/**
 * What `npm run dev` leaves unwatched (src/integrations/dev-watch.ts): the caches, the staging area,
 * the output and what a swap keeps beside it; never a file of the project's own.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../src/integrations/dev-watch.ts';

const root = path.resolve('/srv/press');

describe('the dev server watch list', () => {
  it('leaves out the folders the build writes into the project, and nothing else', () => {
    const ignored = generatedFiles(root, { cacheDir: undefined }, path.join(root, 'dist'));
    for (const file of [
      '.cache/bodies/0a1b.html',
      '.cache',
      '.building/1234-ab12cd34/index.html',
      'dist/index.html',
      'dist.previous-1234-ab12cd34/index.html',
      'dist.incoming-1234-ab12cd34/releases/index.html',
    ])
      expect(ignored(path.join(root, file)), file).toBe(true);
    for (const file of ['src/pages/index.astro', 'dist.config.mjs', 'distribution/notes.html', '.cached.html', 'public/logo.svg'])
      expect(ignored(path.join(root, file)), file).toBe(false);
  });

  it('takes PRESSROOM_CACHE_DIR, relative to the project or anywhere', () => {
    const relative = generatedFiles(root, { cacheDir: 'var/cache' }, path.join(root, 'dist'));
    expect(relative(path.join(root, 'var/cache/images/out/a.webp'))).toBe(true);
    expect(relative(path.join(root, '.cache/bodies/0a1b.html'))).toBe(false);
    const elsewhere = generatedFiles(root, { cacheDir: '/var/cache/press' }, path.join(root, 'dist'));
    expect(elsewhere('/var/cache/press/bodies/0a1b.html')).toBe(true);
  });
});
