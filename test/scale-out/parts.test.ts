/**
 * The parts of scale-out that need no server: PRESSROOM_QUEUE_URL and
 * PRESSROOM_STORE_URL read by the configuration contract, the jobs read from a
 * site's data (locked kits left out, one job per original and sizes), and the
 * folder store (whole files under out/, names that are never paths).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFolderRenditionStore, SharedStoreError } from '../../image-pipeline/index.ts';
import { createJobTracker } from '../../scale-out/job-tracker.ts';
import { describeQueue } from '../../scale-out/queue.ts';
import { jobsInPageOrder } from '../../scale-out/page-order.ts';
import { renditionJobsOf } from '../../scale-out/site-jobs.ts';
import { ConfigError, loadConfig } from '../../src/config/environment.ts';
import { tempDir } from '../image-pipeline/helpers.ts';

const rendition = (url: string, width: number, height: number) => ({ url, width, height });

describe('scale-out configuration', () => {
  it('reads the queue and the store, hides a Redis password and needs a store with a queue', () => {
    const config = loadConfig({
      PRESSROOM_QUEUE_URL: 'redis://:s3cret@queue.internal:6379/2',
      PRESSROOM_STORE_URL: 's3://renditions/press/site',
    });
    expect(config.queueUrl).toBe('redis://:s3cret@queue.internal:6379/2');
    expect(config.store).toEqual({ kind: 's3', bucket: 'renditions', prefix: 'press/site/' });
    expect(JSON.stringify(config)).not.toContain('s3cret');
    expect(describeQueue(config.queueUrl!)).toBe('redis://queue.internal:6379/2');
    expect(loadConfig({ PRESSROOM_STORE_URL: 'file:///srv/renditions' }).store).toEqual({ kind: 'file', dir: '/srv/renditions' });
    expect(() => loadConfig({ PRESSROOM_QUEUE_URL: 'redis://queue:6379' })).toThrow(
      /^PRESSROOM_QUEUE_URL is set but PRESSROOM_STORE_URL is not/,
    );
    for (const [name, value] of [
      ['PRESSROOM_QUEUE_URL', 'http://queue:6379'],
      ['PRESSROOM_STORE_URL', 'file://host/srv'],
      ['PRESSROOM_STORE_URL', 's3://Bad_Bucket/x'],
      ['PRESSROOM_STORE_URL', 's3://renditions/../x'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), value).toThrow(ConfigError);
    }
  });
});

describe('rendition jobs of a site', () => {
  it('has one job per original and sizes, and none for a locked kit or a file: logo', () => {
    const photo = {
      original: rendition('https://cdn.example/a.jpg', 1200, 800),
      thumbnail: rendition('https://cdn.example/a-t.jpg', 300, 200),
    };
    const data = new Map<string, Map<string, unknown>>([
      ['images', new Map([['1', { data: { id: 1, sizes: photo, title: 'A' } }]])],
      [
        'releases',
        new Map([
          ['9', { data: { images: [{ sizes: photo }], tag: { image: { square: rendition('https://cdn.example/t.png', 100, 100) } } } }],
        ]),
      ],
      [
        'kits',
        new Map([
          ['3', { data: { is_locked: true, media: [{ sizes: { original: rendition('https://cdn.example/secret.jpg', 10, 10) } }] } }],
        ]),
      ],
      ['pressroom', new Map([['p', { data: { logo: { original: rendition('file:///srv/logo.png', 10, 10) } } }]])],
    ]);
    const jobs = [...renditionJobsOf(data, false).values()];
    expect(jobs.map((j) => j.url)).toEqual(['https://cdn.example/a.jpg', 'https://cdn.example/t.png']);
    expect(jobs[0]!.declared).toEqual([
      { name: 'original', width: 1200, height: 800 },
      { name: 'thumbnail', width: 300, height: 200 },
    ]);
    expect(JSON.stringify(jobs)).not.toContain('secret');
  });
});

describe('rendition jobs in page order', () => {
  it("ranks each job by the first pages that show its original: the logo first, the releases' images before the library's and the kits'", () => {
    const sizes = (name: string) => ({ original: rendition(`https://cdn.example/${name}.jpg`, 800, 600) });
    const entries = (...items: unknown[]) => new Map(items.map((data, i) => [String(i), { data }]));
    // In the order the content layer may store them: the kits first, the press room last.
    const data = new Map<string, unknown>([
      ['mediaKits', entries({ is_locked: false, media: [{ sizes: sizes('kit') }, { sizes: sizes('shared') }] })],
      ['images', entries({ sizes: sizes('library') }, { sizes: sizes('shared') })],
      ['pressReleases', entries({ featured_images: [{ sizes: sizes('newest') }] }, { featured_images: [{ sizes: sizes('older') }] })],
      ['mediaKitCategories', entries({ image: sizes('category') })],
      ['pressroom', entries({ logo: sizes('logo') })],
    ]);
    const { jobs, priorities } = jobsInPageOrder(data, false);
    const order = [...jobs].map(([id, job]) => [job.url.replace(/^.*\/|\.jpg$/g, ''), priorities.get(id)]);
    expect(order).toEqual([
      ['logo', 1],
      ['newest', 2],
      ['older', 2],
      ['library', 6],
      ['shared', 6],
      ['kit', 7],
      ['category', 9],
    ]);
  });
});

describe('the folder store', () => {
  it('puts whole files under out/ by name, answers has/get, and refuses names that are no rendition names', async () => {
    const { dir, remove } = await tempDir('folder-store');
    try {
      const store = createFolderRenditionStore(dir);
      await store.check();
      const name = '0123456789abcdef-300x200.webp';
      const file = path.join(dir, 'made.webp');
      await writeFile(file, 'pixels');
      expect(await store.has(name)).toBe(false);
      expect(await store.get(name, path.join(dir, 'copy'))).toBe(false);
      await store.put(name, file);
      expect(await store.has(name)).toBe(true);
      expect(await store.get(name, path.join(dir, 'copy'))).toBe(true);
      expect(await readFile(path.join(dir, 'copy'), 'utf8')).toBe('pixels');
      expect(await readdir(path.join(dir, 'out'))).toEqual([name]);
      expect(await readdir(path.join(dir, 'tmp'))).toEqual([]);
      await expect(store.put('../../etc/passwd', file)).rejects.toThrow(SharedStoreError);
      await expect(createFolderRenditionStore(path.join(dir, 'not-mounted')).check()).rejects.toThrow(
        /is not a folder here: mount the shared volume/,
      );
    } finally {
      await remove();
    }
  });
});

describe('the job tracker pages wait on', () => {
  const job = (url: string, width: number) => ({ url, declared: [{ name: 'original', width, height: width }], avif: false, encoder: 'e' });
  const settled = async (p: Promise<void>) => {
    let state = 'pending';
    p.then(
      () => (state = 'resolved'),
      () => (state = 'rejected'),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    return state;
  };

  it("waits for every job of an original's URL, not for the others, and at once for a URL no job has", async () => {
    const tracker = createJobTracker(
      new Map([
        ['r1', job('https://cdn.example/a.jpg', 100)],
        ['r2', job('https://cdn.example/a.jpg', 200)],
        ['r3', job('https://cdn.example/b.jpg', 100)],
      ]),
    );
    const a = tracker.whenDone('https://cdn.example/a.jpg');
    const b = tracker.whenDone('https://cdn.example/b.jpg');
    expect(await settled(tracker.whenDone('https://cdn.example/inline.png'))).toBe('resolved');
    tracker.done(['r1']);
    expect(await settled(a)).toBe('pending');
    tracker.done(['r3', 'r2']);
    expect([await settled(a), await settled(b)]).toEqual(['resolved', 'resolved']);
    expect(await settled(tracker.whenDone('https://cdn.example/a.jpg'))).toBe('resolved');
  });

  it('rejects every wait, now and later, once the wait failed, and resolves them all once released', async () => {
    const failing = createJobTracker(new Map([['r1', job('https://cdn.example/a.jpg', 100)]]));
    const waiting = failing.whenDone('https://cdn.example/a.jpg');
    failing.fail(new Error('images: lost the queue'));
    await expect(waiting).rejects.toThrow('images: lost the queue');
    await expect(failing.whenDone('https://cdn.example/a.jpg')).rejects.toThrow('images: lost the queue');

    const released = createJobTracker(new Map([['r1', job('https://cdn.example/a.jpg', 100)]]));
    const left = released.whenDone('https://cdn.example/a.jpg');
    released.releaseAll();
    expect([await settled(left), await settled(released.whenDone('https://cdn.example/a.jpg'))]).toEqual(['resolved', 'resolved']);
  });
});
