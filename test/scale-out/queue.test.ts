/**
 * Scale-out with real parts: the emulator over HTTP, Debian's redis-server,
 * s3rver as the shared store and `npm run worker` processes. A handful of the
 * demo press room's originals go through the queue and must come out as the
 * very bytes the in-process pipeline makes; a worker killed with SIGKILL
 * mid-job gives its job back; a second round finds everything in the store;
 * no secret reaches Redis; a refused original is refused, not retried; and
 * the build's waits end in one line when Redis is not there, goes away, or
 * no worker comes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'devalue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { renditionJobId, renditionJobOf, type ImagePipeline } from '../../image-pipeline/index.ts';
import { distributeRenditionJobs, startDistribution } from '../../scale-out/distribute.ts';
import { createEarlyTakes } from '../../scale-out/early-takes.ts';
import { stopWorkersWait } from '../../scale-out/build-wait.ts';
import { pagePriorityOf } from '../../scale-out/page-order.ts';
import { renditionJobsOf } from '../../scale-out/site-jobs.ts';
import { collectionStored } from '../../src/config/stored-collections.ts';
import { loadAll, runtimeFor } from '../helpers/loader-context.ts';
import { openSharedStore } from '../../scale-out/store.ts';
import { closeBuildSession, openBuildSession } from '../../src/config/session.ts';
import { loadConfig } from '../../src/config/environment.ts';
import imagePipeline from '../../src/integrations/images.ts';
import { picture } from '../../src/lib/image-pipeline.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { spawnWorker, type RunningWorker } from '../helpers/worker-process.ts';
import { tempDir, testPipeline } from '../image-pipeline/helpers.ts';

const API_KEY = 'prk_live_never-in-redis-4242';

type Sizes = Record<string, { width: number | string | null; height: number | string | null; url: string }>;

describe('rendition jobs on BullMQ workers', () => {
  let emulator: RunningEmulator;
  let redis: RedisServer;
  /** A wait for the workers that says nothing and polls every 100 ms, given up after a minute. */
  const quietWait = () => ({ queueUrl: redis.url, waitMs: 60_000, pollMs: 100, log: { info: () => undefined } });
  let s3: S3Server;
  const dirs: Array<Awaited<ReturnType<typeof tempDir>>> = [];
  const media: Sizes[] = [];
  let env: Record<string, string>;
  const workers: RunningWorker[] = [];
  /** The in-process pipeline's pictures and bytes of `media` (the first test makes them). */
  let reference: Awaited<ReturnType<typeof renditionBytes>>;

  const dir = async (label: string) => {
    const made = await tempDir(`scale-out-${label}`);
    dirs.push(made);
    return made.dir;
  };

  function startWorker(cacheDir: string): RunningWorker {
    const worker = spawnWorker(['--concurrency', '1'], { ...process.env, ...env, PRESSROOM_CACHE_DIR: cacheDir });
    workers.push(worker);
    return worker;
  }

  const untilLine = async (worker: RunningWorker, pattern: RegExp, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!worker.lines.some((l) => pattern.test(l))) {
      if (Date.now() > deadline) throw new Error(`no line ${pattern} from the worker: ${worker.lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const jobsOf = (items: Sizes[]) => new Map(items.map((sizes) => renditionJobOf(sizes, false)!).map((job) => [renditionJobId(job), job]));

  /** Every published output's bytes, by name, after asking for each item's picture. */
  async function renditionBytes(pipeline: ImagePipeline, items: Sizes[]): Promise<{ pictures: unknown[]; bytes: Map<string, string> }> {
    const pictures = [];
    for (const sizes of items) pictures.push(await pipeline.picture({ sizes }, { page: '/test/' }));
    const bytes = new Map<string, string>();
    for (const [name, file] of pipeline.published()) bytes.set(name, (await readFile(file)).toString('base64'));
    return { pictures, bytes };
  }

  beforeAll(async () => {
    [emulator, redis, s3] = await Promise.all([
      startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE }),
      startRedisServer(),
      startS3Server({ bucket: 'renditions' }),
    ]);
    const base = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}`;
    const images = ((await (await fetch(`${base}/images?limit=100`)).json()) as { data: Array<{ transparent: boolean; sizes: Sizes }> })
      .data;
    media.push(
      ...images
        .filter((i) => !i.transparent)
        .slice(0, 3)
        .map((i) => i.sizes),
    );
    media.push(images.find((i) => i.transparent)!.sizes);
    env = {
      ...s3.env,
      PRESSROOM_QUEUE_URL: redis.url,
      PRESSROOM_STORE_URL: `s3://${s3.bucket}/site-a`,
      PRESSROOM_API_URL: emulator.url,
      PRESSROOM_API_KEY: API_KEY,
    };
  });

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await Promise.all([emulator?.close(), redis?.stop(), s3?.dispose()]);
    await Promise.all(dirs.map((d) => d.remove()));
  });

  const sharedStore = () => openSharedStore({ kind: 's3', bucket: s3.bucket, prefix: 'site-a/' }, env);

  it('makes the in-process bytes on workers, survives a worker killed mid-job, finds a second round in the store and keeps secrets out of Redis', async () => {
    reference = await renditionBytes(testPipeline({ apiUrl: emulator.url, cacheDir: await dir('reference') }), media);
    expect(reference.bytes.size).toBeGreaterThan(media.length);

    // One worker takes the first job; it is killed as soon as a job is active (mid-download or mid-encode).
    const doomed = startWorker(await dir('doomed'));
    await untilLine(doomed, /taking rendition jobs/);
    const store = sharedStore();
    const log: string[] = [];
    const distributed = distributeRenditionJobs({
      queueUrl: redis.url,
      store,
      jobs: jobsOf(media),
      waitMs: 60_000,
      log: { info: (l) => log.push(l) },
    });
    let failure: unknown;
    distributed.catch((error: unknown) => (failure = error));
    const activeKey = 'bull:pressroom-renditions:active';
    const until = Date.now() + 20_000;
    while (Number(await redis.command('LLEN', activeKey)) === 0) {
      if (Date.now() > until) throw new Error(`no job became active: ${String(failure)} ${log.join('\n')} ${doomed.lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    // Two fresh workers finish everything, the killed worker's job included once its lock expires.
    startWorker(await dir('second'));
    startWorker(await dir('third'));
    const { enqueued } = await distributed;
    expect(enqueued).toBe(media.length);
    expect(log.join('\n')).toMatch(/images: workers have made \d+ of 4 originals' renditions|queued for the workers/);

    const build = testPipeline({ apiUrl: emulator.url, cacheDir: await dir('build'), sharedStore: store });
    const withWorkers = await renditionBytes(build, media);
    expect(build.stats().encoded).toBe(0);
    expect(build.stats().fromStore).toBe(reference.bytes.size);
    expect(withWorkers.pictures).toEqual(reference.pictures);
    expect(withWorkers.bytes).toEqual(reference.bytes);

    // The same jobs again: everything is in the store, nothing is uploaded again.
    const puts = () => s3.requests.filter((r) => r.method === 'PUT' && r.key.includes('/out/')).length;
    const putsBefore = puts();
    expect(putsBefore).toBe(reference.bytes.size);
    await distributeRenditionJobs({ queueUrl: redis.url, store, jobs: jobsOf(media), waitMs: 60_000, log: { info: () => undefined } });
    expect(puts()).toBe(putsBefore);

    // Nothing secret in Redis: neither the API key nor the store's credentials, in any key or value.
    const keys = (await redis.command('KEYS', '*')) as string[];
    const dump: string[] = [...keys];
    for (const key of keys) {
      const type = (await redis.command('TYPE', key)) as string;
      const read: Record<string, string[]> = {
        string: ['GET', key],
        hash: ['HGETALL', key],
        list: ['LRANGE', key, '0', '-1'],
        set: ['SMEMBERS', key],
        zset: ['ZRANGE', key, '0', '-1'],
        stream: ['XRANGE', key, '-', '+'],
      };
      if (read[type]) dump.push(JSON.stringify(await redis.command(...read[type]!)));
    }
    const everything = dump.join('\n');
    expect(everything).toContain('pressroom-renditions');
    for (const secret of [API_KEY, s3.env.AWS_SECRET_ACCESS_KEY!]) expect(everything).not.toContain(secret);
    store.close?.();
  }, 150_000);

  it('hands each job to the build as it leaves the queue, and the build takes its renditions before any page asks', async () => {
    const store = sharedStore();
    const reads = () => s3.requests.filter((r) => r.method === 'GET' && r.key.startsWith('site-a/out/')).length;
    const readsAtStart = reads();
    const build = testPipeline({ apiUrl: emulator.url, cacheDir: await dir('early'), sharedStore: store });
    const jobs = jobsOf(media);
    const handed: string[] = [];
    const early = createEarlyTakes((job) => build.takeFromStore(job));
    await distributeRenditionJobs({
      ...quietWait(),
      store,
      jobs,
      onDone: (ids) => {
        handed.push(...ids);
        early.add(ids.map((id) => jobs.get(id)!));
      },
    });
    await early.settled();
    expect(handed.toSorted()).toEqual([...jobs.keys()].toSorted());
    expect(early.done).toBe(media.length);

    // The pages then find every rendition in the cache: not one more read from the bucket, the same bytes, each file counted once.
    const readsBefore = reads();
    expect(readsBefore - readsAtStart).toBe(reference.bytes.size);
    const rendered = await renditionBytes(build, media);
    expect(reads()).toBe(readsBefore);
    expect(rendered.pictures).toEqual(reference.pictures);
    expect(rendered.bytes).toEqual(reference.bytes);
    expect(build.stats()).toMatchObject({ encoded: 0, fromStore: reference.bytes.size, reused: 0 });
    store.close?.();
  }, 60_000);

  it("renders while the workers encode: a picture waits for its own original's jobs, then takes their files", async () => {
    // Sizes no worker has made yet (one more rendition each): their jobs have real work to do.
    const fresh: Sizes[] = media.map((sizes, i) => ({
      ...sizes,
      extra: { url: Object.values(sizes)[0]!.url, width: 64 + i, height: 48 + i },
    }));
    const inProcess = await renditionBytes(testPipeline({ apiUrl: emulator.url, cacheDir: await dir('overlap-reference') }), fresh);
    const store = sharedStore();
    const jobs = jobsOf(fresh);
    const left = new Set(jobs.keys());
    const distribution = await startDistribution({
      ...quietWait(),
      store,
      jobs,
      onDone: (ids) => ids.forEach((id) => left.delete(id)),
    });
    const idOf = new Map([...jobs].map(([id, job]) => [job.url, id]));
    let askedBeforeDone = 0;
    const build = testPipeline({
      apiUrl: emulator.url,
      cacheDir: await dir('overlap'),
      sharedStore: store,
      awaitShared: (url) => {
        if (left.has(idOf.get(url)!)) askedBeforeDone++;
        return distribution.whenDone(url);
      },
    });
    const rendered = await renditionBytes(build, fresh);
    await distribution.finished;
    // Pages asked while jobs were still in the queue, and still encoded nothing: each waited, then took the workers' files.
    expect(askedBeforeDone).toBeGreaterThan(0);
    expect(build.stats().encoded).toBe(0);
    expect(build.stats().fromStore).toBe(inProcess.bytes.size);
    expect(rendered.pictures).toEqual(inProcess.pictures);
    expect(rendered.bytes).toEqual(inProcess.bytes);
    store.close?.();
  }, 60_000);

  it("reads from the bucket straight into the caller's temporary file, with no part file of its own", async () => {
    const work = await dir('s3-get');
    const store = sharedStore();
    const name = '0123456789abcdef-8x8.webp';
    await writeFile(path.join(work, 'source'), 'rendition bytes');
    await store.put(name, path.join(work, 'source'));
    // A folder where a `.part` beside the target would go: a store that renames through one fails here.
    const target = path.join(work, 'taken.tmp');
    await mkdir(`${target}.part`);
    expect(await store.get(name, target)).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('rendition bytes');
    expect(await store.get('fedcba9876543210-8x8.webp', path.join(work, 'absent.tmp'))).toBe(false);
    store.close?.();
  });

  it('refuses a poison original once, as in-process, without retrying it', async () => {
    const base = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}`;
    const documents = ((await (await fetch(`${base}/documents?limit=1`)).json()) as { data: Array<{ url: string }> }).data;
    // A PDF where a picture's original should be: refused for its format.
    const poison: Sizes = { original: { url: documents[0]!.url, width: 800, height: 600 } };
    const reference = await testPipeline({ apiUrl: emulator.url, cacheDir: await dir('poison-reference') }).picture({ sizes: poison });
    expect(reference).toMatchObject({ ok: false, status: 'refused' });
    await distributeRenditionJobs({
      queueUrl: redis.url,
      store: sharedStore(),
      jobs: jobsOf([poison]),
      waitMs: 60_000,
      log: { info: () => undefined },
    });
    const lines = workers.flatMap((w) => w.lines);
    expect(lines.filter((l) => l.includes(documents[0]!.url) && /refused \(format\)/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /failed, attempt/.test(l))).toEqual([]);
    const build = testPipeline({ apiUrl: emulator.url, cacheDir: await dir('poison-build'), sharedStore: sharedStore() });
    expect(await build.picture({ sizes: poison })).toEqual(reference);
    expect(build.refused()).toHaveLength(1);
  });

  it('stops its workers on SIGTERM, then says every few seconds that no worker is there and gives up', async () => {
    const running = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    for (const w of running) w.child.kill('SIGTERM');
    expect(await Promise.all(running.map((w) => w.exited))).toEqual(running.map(() => 0));
    expect(running[0]!.lines.join('\n')).toMatch(/SIGTERM: finishing the jobs under way, taking no new one/);
    const lonely: Sizes = { ...media[0]!, extra: { url: Object.values(media[0]!)[0]!.url, width: 90, height: 90 } };
    const log: string[] = [];
    const started = Date.now();
    await expect(
      distributeRenditionJobs({
        queueUrl: redis.url,
        store: sharedStore(),
        jobs: jobsOf([lonely]),
        waitMs: 1_500,
        pollMs: 100,
        progressEveryMs: 400,
        log: { info: (l) => log.push(l) },
      }),
    ).rejects.toThrow(/^images: no worker took the 1 waiting jobs at redis:\/\/127\.0\.0\.1:\d+ in 2 s: start `npm run worker`/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(log.filter((l) => /no worker is connected to redis:\/\/127\.0\.0\.1:\d+: 1 jobs waiting/.test(l)).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it("adds a collection's jobs as the content layer stores it, before the build starts, in page order, and never a locked kit's", async () => {
    // The emulator answers as a key with more rights would: locked kits come with their media.
    const settings = (leakHidden: boolean) =>
      fetch(`${emulator.url}/_emulator/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ leakHidden }),
      });
    type Kit = { is_locked: boolean; is_password_protected: boolean; media: Array<{ sizes: Sizes }> };
    const kitsUrl = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}/media_kits?limit=100`;
    // Every original the kits' media show (each `sizes` anywhere in an item), whether a kit is locked or not.
    const urlsOf = (kits: Kit[]) =>
      new Set(
        [
          ...renditionJobsOf(
            kits.map((k) => k.media),
            false,
          ).values(),
        ].map((job) => job.url),
      );
    const publicUrls = urlsOf(((await (await fetch(kitsUrl)).json()) as { data: Kit[] }).data);
    await settings(true);
    const leaked = ((await (await fetch(kitsUrl)).json()) as { data: Kit[] }).data;
    const lockedOnly = [...urlsOf(leaked.filter((k) => k.is_locked || k.is_password_protected))].filter((url) => !publicUrls.has(url));
    expect(lockedOnly.length).toBeGreaterThan(0);
    const root = await dir('early-enqueue');
    await mkdir(path.join(root, 'store'), { recursive: true });
    const siteEnv = {
      ...env,
      PRESSROOM_ID: String(emulator.pressroom.id),
      PRESSROOM_CACHE_DIR: path.join(root, 'cache'),
      PRESSROOM_STORE_URL: pathToFileURL(path.join(root, 'store')).href,
    };
    const config = loadConfig(siteEnv);
    openBuildSession(config, 60_000);
    try {
      const hooks = imagePipeline({ config }).hooks as Record<string, (arg: unknown) => Promise<void> | void>;
      hooks['astro:config:setup']!({ logger: { info: () => undefined, warn: () => undefined }, command: 'build' });
      const jobKeys = async () =>
        ((await redis.command('KEYS', 'bull:pressroom-renditions:*')) as string[]).filter((k) => /:r[0-9a-f]{16}$/.test(k));
      const before = new Set(await jobKeys());
      // The real loader, as the content config runs it: each collection announced once stored.
      const { stores } = await loadAll(await runtimeFor(siteEnv, path.join(root, 'http')), {}, ['mediaKits'], {
        onStored: collectionStored,
      });
      const deadline = Date.now() + 10_000;
      let added: string[] = [];
      while ((added = (await jobKeys()).filter((k) => !before.has(k))).length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // Jobs are in Redis while no build has started: every public kit's original, with the kits' page-order priority.
      const queued = await Promise.all(
        added.map(async (key) => ({
          data: JSON.parse((await redis.command('HGET', key, 'data')) as string) as { url: string },
          priority: Number(await redis.command('HGET', key, 'priority')),
        })),
      );
      const stored = [...stores.mediaKits.map.values()].map((e) => e.data);
      expect(queued.length).toBeGreaterThan(0);
      expect(new Set(queued.map((j) => j.data.url))).toEqual(urlsOf(stored as Kit[]));
      expect(new Set(queued.map((j) => j.priority))).toEqual(new Set([pagePriorityOf('mediaKits')]));
      for (const url of lockedOnly) expect(queued.map((j) => j.data.url)).not.toContain(url);

      // Releases, stored later, show one of the kits' originals: its job moves up to the releases' rank.
      const shown = (stored as Kit[]).flatMap((k) => k.media).find((m) => m.sizes)!;
      const shownKey = `bull:pressroom-renditions:${renditionJobId(renditionJobOf(shown.sizes, false)!)}`;
      expect(added).toContain(shownKey);
      collectionStored('pressReleases', [{ featured_images: [shown] }]);
      const raised = Date.now() + 10_000;
      while (Number(await redis.command('HGET', shownKey, 'priority')) !== pagePriorityOf('pressReleases') && Date.now() < raised)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(Number(await redis.command('HGET', shownKey, 'priority'))).toBe(pagePriorityOf('pressReleases'));
    } finally {
      await stopWorkersWait();
      closeBuildSession();
      await settings(false);
    }
  }, 30_000);

  it('stops waiting once the pages are done, leaving the jobs no page needed in the queue', async () => {
    // No worker is running: the job stays queued, and stopping does not wait for it.
    const unneeded: Sizes = { ...media[2]!, extra: { url: Object.values(media[2]!)[0]!.url, width: 96, height: 96 } };
    const distribution = await startDistribution({
      ...quietWait(),
      store: sharedStore(),
      jobs: jobsOf([unneeded]),
    });
    const started = Date.now();
    await expect(distribution.stop()).resolves.toMatchObject({ enqueued: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(distribution.whenDone(unneeded.extra!.url)).resolves.toBeUndefined();
    expect(Number(await redis.command('LLEN', 'bull:pressroom-renditions:wait'))).toBeGreaterThanOrEqual(1);
  });

  it("gives up after the build session's --wait through the images integration's own queue wait", async () => {
    const root = await dir('session-wait');
    const cacheDir = path.join(root, '.astro');
    await mkdir(cacheDir, { recursive: true });
    const alone: Sizes = { ...media[1]!, extra: { url: Object.values(media[1]!)[0]!.url, width: 92, height: 92 } };
    await writeFile(path.join(cacheDir, 'data-store.json'), stringify(new Map([['media', new Map([['m1', { data: { sizes: alone } }]])]])));
    // A folder store: the integration reads the S3 credentials from process.env, which this test leaves alone.
    await mkdir(path.join(root, 'store'), { recursive: true });
    const config = loadConfig({
      ...env,
      PRESSROOM_ID: String(emulator.pressroom.id),
      PRESSROOM_STORE_URL: pathToFileURL(path.join(root, 'store')).href,
    });
    openBuildSession(config, 1_000);
    try {
      const hooks = imagePipeline({ config }).hooks as Record<string, (arg: unknown) => Promise<void> | void>;
      hooks['astro:config:done']!({
        config: {
          root: pathToFileURL(`${root}/`),
          outDir: pathToFileURL(`${root}/dist/`),
          cacheDir: pathToFileURL(`${cacheDir}/`),
          base: '/',
        },
      });
      // The pages render while the workers encode; one that needs the original waits for its job.
      await hooks['astro:build:start']!({});
      const gaveUp = /^images: no worker took the \d+ waiting jobs at redis:\/\/127\.0\.0\.1:\d+ in 1 s: /;
      // The integration's default is 600 s: only the session's 1 s makes this give up "in 1 s".
      await expect(picture({ sizes: alone }, { page: '/media/' })).rejects.toThrow(gaveUp);
      await expect(hooks['astro:build:generated']!({})).rejects.toThrow(gaveUp);
    } finally {
      closeBuildSession();
    }
  }, 10_000);

  it('fails in one line when Redis is not there at start, or goes away while the build waits', async () => {
    const nowhere = 'redis://127.0.0.1:1';
    await expect(
      distributeRenditionJobs({
        queueUrl: nowhere,
        store: sharedStore(),
        jobs: jobsOf(media),
        waitMs: 60_000,
        deadlineMs: 1_000,
        log: { info: () => undefined },
      }),
    ).rejects.toThrow(
      /^images: no answer from the queue at redis:\/\/127\.0\.0\.1:1 in 1 s \(connecting\): start Redis there or unset PRESSROOM_QUEUE_URL$/,
    );

    // No worker is left: a page rendering meanwhile waits for its original's job when Redis goes away.
    const lonely: Sizes = { ...media[1]!, extra: { url: Object.values(media[1]!)[0]!.url, width: 80, height: 80 } };
    const started = Date.now();
    const distribution = await startDistribution({
      ...quietWait(),
      store: sharedStore(),
      jobs: jobsOf([lonely]),
      deadlineMs: 1_000,
      lostAfterMs: 2_000,
    });
    distribution.finished.catch(() => undefined);
    const page = testPipeline({
      apiUrl: emulator.url,
      cacheDir: await dir('lost-while-rendering'),
      sharedStore: sharedStore(),
      awaitShared: (url) => distribution.whenDone(url),
    }).picture({ sizes: lonely });
    page.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await redis.stop();
    const lost = /^images: lost the queue at redis:\/\/127\.0\.0\.1:\d+ while waiting for the workers: /;
    await expect(distribution.finished).rejects.toThrow(lost);
    // The page fails with the build's one line, not a refused image's placeholder.
    await expect(page).rejects.toThrow(lost);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
