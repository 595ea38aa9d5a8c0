/**
 * Whole builds in child processes, one after another (builds share Astro's
 * cache folders, so they never run in parallel): offline press-archive
 * snapshots end to end — record the demo press room, build from the snapshot
 * twice with no API at all, byte-identical trees — and a build against an API
 * that requires a key, which must appear nowhere in the output or the logs;
 * an offline archive made from the snapshot, opened from a folder in Chromium;
 * and a signed publish event from the emulator rebuilding and deploying through
 * `npm run webhooks`.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnReceiver, subscribeReceiver } from '../helpers/receiver-process.ts';
import { startEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { HOSTILE } from '../helpers/hostile-html.ts';
import { clickEveryLink, hasChromium, launchChromium, noChromium, pwnedMarker, serveStatic, watchedPage } from '../browser/helpers.ts';
import { readManifest, sha256Hex } from '../../content-loaders/snapshot/manifest.ts';
import { loadPages, urlsOf } from '../site/helpers.ts';
import { SAME_DAY_EPOCHS, buildDayTests, expectArchiveEventPhases } from './build-day.ts';
import { dataPolicyBuildTests } from './data-policy-builds.ts';
import { noChangeTests } from './no-change.ts';
import { fileDigests } from '../helpers/file-tree.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const node = process.execPath;
let tmp: string;
let snapshot: string;

const tree = fileDigests;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'snapshot-build-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('building from a snapshot', () => {
  it('records the demo press room and builds it twice offline into identical bytes', async () => {
    snapshot = path.join(tmp, 'snapshot');
    const env = { ...process.env, PRESSROOM_API_URL: '', PRESSROOM_SNAPSHOT: '' };
    const recorded = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/snapshot.ts', '--out', snapshot], { cwd: root, env });
    expect(recorded.stdout).toMatch(/wrote .*: \d+ API responses, \d+ media originals/);

    // A dead API URL proves the build never asks the network: the snapshot wins.
    // Two build clocks of one build day (docs/site.md, Events and time): the same bytes all day.
    // The build-day tests (build-day.ts) compare a build of the next day with these two.
    const offline = {
      ...process.env,
      PRESSROOM_SNAPSHOT: snapshot,
      PRESSROOM_API_URL: 'http://127.0.0.1:9',
      PRESSROOM_ID: '1',
      SOURCE_DATE_EPOCH: SAME_DAY_EPOCHS.early,
    };
    const first = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', path.join(tmp, 'a')], { cwd: root, env: offline });
    expect(first.stdout).toMatch(/entries from the snapshot/);
    const second = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', path.join(tmp, 'b')], {
      cwd: root,
      env: { ...offline, SOURCE_DATE_EPOCH: SAME_DAY_EPOCHS.late },
    });
    // The second build reads every release body's Markdown the first one kept, and writes the same bytes.
    expect(second.stdout).toMatch(/Markdown twins and llms-full\.txt: [1-9]\d* release bodies from the cache, 0 converted/);
    const [a, b] = [await tree(path.join(tmp, 'a')), await tree(path.join(tmp, 'b'))];
    expect(Object.keys(a).length).toBeGreaterThan(1);
    expect(b).toEqual(a);
    // Recorded from the bundled demo: the snapshot says so, and a site built from it is marked as a demo too.
    expect((await readManifest(snapshot)).api.demo).toBe(true);
    expect(await readFile(path.join(tmp, 'a', 'index.html'), 'utf8')).toMatch(
      /<meta name="robots" content="noindex, nofollow">[\s\S]*<p class="demo-note"/,
    );

    // A build that cannot finish exits with an error and leaves the previous site exactly as it was.
    const broken = { ...offline, PRESSROOM_SNAPSHOT: path.join(tmp, 'no-such-snapshot') };
    const failed = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', path.join(tmp, 'a')], {
      cwd: root,
      env: broken,
      timeout: 120_000,
    }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr).toMatch(
      /^build: PRESSROOM_SNAPSHOT is not a readable snapshot: cannot read .*no-such-snapshot\/manifest\.json \(ENOENT\)\n$/,
    );
    expect(await tree(path.join(tmp, 'a'))).toEqual(a);

    // A snapshot whose media original was cut short stops the build before anything is built, with
    // the image cache warm from the builds above (it once held the good bytes): named, exit 1, site kept.
    const damaged = path.join(tmp, 'damaged-snapshot');
    await cp(snapshot, damaged, { recursive: true });
    const media = (await readManifest(damaged)).entries.find((e) => e.contentType?.startsWith('image/') && !e.url.includes('/v1/'))!;
    const mediaFile = path.join(damaged, 'files', media.sha256);
    await writeFile(mediaFile, (await readFile(mediaFile)).subarray(0, 1000));
    // And the same with a cold cache (an empty PRESSROOM_CACHE_DIR).
    const coldCache = await mkdtemp(path.join(tmp, 'cold-cache-'));
    for (const cache of [{}, { PRESSROOM_CACHE_DIR: coldCache }]) {
      const truncated = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', path.join(tmp, 'a')], {
        cwd: root,
        env: { ...offline, ...cache, PRESSROOM_SNAPSHOT: damaged },
      }).catch((e: { code: number; stderr: string }) => e);
      expect((truncated as { code: number }).code).toBe(1);
      expect((truncated as { stderr: string }).stderr).toContain(
        `snapshot file ${mediaFile} for ${media.url} does not match its SHA-256 (1000 bytes, ${media.bytes} recorded)`,
      );
      expect((truncated as { stderr: string }).stderr).toContain(`${path.join(tmp, 'a')} was left exactly as it was.`);
      expect(await tree(path.join(tmp, 'a'))).toEqual(a);
    }

    // A part of the build that never answers (a child process gone, here the write of a page, early
    // in route generation) fails the build with a message instead of Node's silent exit 13: staging
    // removed, site kept.
    type Outcome = { code: number; stdout: string; stderr: string };
    const stalled: Outcome = await run(
      node,
      [SOURCE_CONDITION_FLAG, '--import', './test/helpers/stalled-write.ts', 'scripts/build.ts', '--out', path.join(tmp, 'a'), '--force'],
      { cwd: root, env: { ...offline, STALLED_WRITE_ENDING: 'index.html' }, timeout: 300_000 },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: Outcome) => e,
    );
    expect(stalled.code).toBe(1);
    expect(stalled.stderr).toContain('build failed: the build stopped without finishing');
    expect(stalled.stderr).toContain(`${path.join(tmp, 'a')} was left exactly as it was.`);
    expect(await tree(path.join(tmp, 'a'))).toEqual(a);
    // Astro colours its log when CI is set.
    const staging = /\[build\] directory: (\S+)/.exec(stalled.stdout.replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
    expect(staging).toContain(`${path.sep}.building${path.sep}`);
    expect(existsSync(staging!)).toBe(false);

    // --out never replaces a folder that is not a built site (`--out .` must not delete a project).
    const project = path.join(tmp, 'a-project');
    await mkdir(project, { recursive: true });
    await writeFile(path.join(project, 'package.json'), '{}');
    const refused = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', project], { cwd: root, env: offline }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((refused as { code: number }).code).toBe(2);
    expect((refused as { stderr: string }).stderr).toMatch(/already holds files this tool did not write \(no index\.html, _astro\)/);
    expect(await readdir(project)).toEqual(['package.json']);
  }, 600_000);

  it('runs demo builds started 0, 1 and 5 s apart into one folder outside the project one at a time: the second (--wait 0) exits 1 with the lock line, the third waits and rebuilds the same bytes; the first (cold cache) shows image progress and marks the demo', async () => {
    const out = path.join(tmp, 'overlap', 'site');
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('PRESSROOM_')) delete env[name];
    // A cold cache of its own: the first build encodes every image, and its log (a pipe, not a TTY) must show progress.
    env.PRESSROOM_CACHE_DIR = await mkdtemp(path.join(tmp, 'cold-cache-'));
    const start = (args: string[]) => {
      const child = spawn(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--demo', '--out', out, ...args], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
        child.once('close', (code) => resolve({ code, output })),
      );
      return Object.assign(exited, { started: () => output.length > 0 });
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const first = start([]);
    let firstRunning = true;
    void first.then(() => (firstRunning = false));
    await sleep(1000);
    // Once the first one holds the locks (Astro has started and printed), a second one with --wait 0 gives up.
    while (!first.started()) await sleep(100);
    const second = await start(['--wait', '0']);
    expect(second.code, second.output).toBe(1);
    expect(second.output).toMatch(/^build: another build is running on .* \(lock .*\.lock\); try again when it has finished/m);
    await sleep(4000);
    const firstRunningAsThirdStarts = firstRunning;
    const third = start([]);
    const firstDone = await first;
    expect(firstDone.code, firstDone.output).toBe(0);
    const afterFirst = await tree(out);
    expect(afterFirst['index.html']).toBeDefined();
    // The demo press room, said in the first line and marked on every page.
    expect(firstDone.output.split('\n')[0]).toMatch(
      /^build: DEMO: building the bundled demo press room of a fictional company \(--demo was given\)/,
    );
    // Image progress every few seconds while pages render: done/asked for, rate, estimate, originals.
    const progress =
      firstDone.output.match(/images: \d+\/\d+ files encoded so far \(\d+\.\d\/s[^)]*\), \d+ reused; \d+\/\d+ originals fetched/g) ?? [];
    expect(progress.length, firstDone.output).toBeGreaterThan(1);
    expect(firstDone.output).toMatch(/images: 148 originals \(148 downloaded, [^;]*; 0 not modified\), [1-9]\d* files encoded/);
    // Node's compiled code is kept with the build's other caches (src/config/compile-cache.ts).
    expect((await readdir(path.join(env.PRESSROOM_CACHE_DIR, 'node-compile'), { recursive: true })).length).toBeGreaterThan(0);
    const home = await readFile(path.join(out, 'index.html'), 'utf8');
    expect(home).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(home).toMatch(/<p class="demo-note" role="note"[^>]*>Demo press room: a fictional company/);
    expect(await readFile(path.join(out, 'robots.txt'), 'utf8')).toMatch(/^Disallow: \/$/m);
    const thirdDone = await third;
    expect(thirdDone.code, thirdDone.output).toBe(0);
    // It waited for the first one (unless that one had already finished when it started).
    if (firstRunningAsThirdStarts)
      expect(thirdDone.output).toMatch(
        /^build: waiting for another build on .* to finish: \d+ s of at most 600 s \(the lock of one that crashed is taken over 60 s after its last sign of life\)$/m,
      );
    expect(await tree(out)).toEqual(afterFirst);
    // Nothing left beside the site or in the project's staging area.
    expect(await readdir(path.dirname(out))).toEqual([
      'site',
      'site.changes.json',
      'site.data-report.json',
      'site.fingerprint.json',
      'site.routes.json',
    ]);
    expect(await readdir(path.join(root, '.building')).catch(() => [])).toEqual([]);
  }, 900_000);

  it('makes an offline archive from the snapshot: the same pages, opening from a folder, with the snapshot and a zip', async () => {
    const out = path.join(tmp, 'archives', 'press-archive');
    // The build day of the site it is compared with: the day decides which files there are (the news sitemap).
    const env = { ...process.env, PRESSROOM_SNAPSHOT: '', PRESSROOM_API_URL: '', SOURCE_DATE_EPOCH: SAME_DAY_EPOCHS.early };
    const made = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/archive.ts', '--out', out, '--snapshot', snapshot], {
      cwd: root,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(made.stdout).toMatch(/archive: \d+ files, \d+ pages; .*press-archive\.zip/);

    // The same files as the served build of the same snapshot, plus search's script-file index; only the pages' links differ.
    const site = path.join(out, 'site');
    const served = (files: Record<string, string>) =>
      Object.keys(files)
        .filter((f) => !f.startsWith(`_search${path.sep}`))
        .sort();
    expect(served(await tree(site))).toEqual(served(await tree(path.join(tmp, 'a'))));
    expect(Object.keys(await tree(site))).toContain(path.join('_search', 'entry.js'));

    // No page keeps a root-absolute URL, and every relative one names a file of the archive.
    const pages = await loadPages(site);
    expect(pages.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const from = path.dirname(page.file);
      for (const { url, where } of urlsOf(page.doc)) {
        if (url === '' || /^(https?:|mailto:|tel:|data:|#)/i.test(url)) continue;
        if (url.startsWith('/')) {
          problems.push(`${page.path}: ${where} ${url} is root-absolute`);
          continue;
        }
        checked++;
        const target = path.resolve(from, decodeURIComponent(url.split(/[?#]/)[0]!));
        if (!existsSync(target) || !statSync(target).isFile()) problems.push(`${page.path}: ${where} ${url} names no file`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(1000);

    // The snapshot it was built from travels with it, and the zip holds the whole folder.
    expect((await readManifest(path.join(out, 'snapshot'))).entries.length).toBeGreaterThan(50);
    const zip = await yauzl.openPromise(`${out}.zip`, { lazyEntries: true });
    const zipped: Record<string, string> = {};
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      zipped[entry.fileName.replace(/^press-archive\//, '')] = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
    }
    zip.close();
    expect(Object.keys(zipped)).toContain('site/index.html');
    expect(Object.keys(zipped)).toContain('snapshot/manifest.json');
    const folder = Object.fromEntries(Object.entries(await tree(out)).map(([file, hash]) => [file.split(path.sep).join('/'), hash]));
    expect(zipped).toEqual(folder);

    // A run that fails leaves the archive and its zip exactly as they were; a folder that is not an archive is never replaced.
    const zipBefore = await readFile(`${out}.zip`);
    const failed = await run(
      node,
      [SOURCE_CONDITION_FLAG, 'scripts/archive.ts', '--out', out, '--snapshot', path.join(tmp, 'no-such-snapshot')],
      {
        cwd: root,
        env,
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr).toMatch(
      /^archive: --snapshot is not a readable snapshot: cannot read .*no-such-snapshot/,
    );
    expect(Object.fromEntries(Object.entries(await tree(out)).map(([file, hash]) => [file.split(path.sep).join('/'), hash]))).toEqual(
      folder,
    );
    expect((await readFile(`${out}.zip`)).equals(zipBefore)).toBe(true);
    const project = path.join(tmp, 'not-an-archive');
    await mkdir(project, { recursive: true });
    await writeFile(path.join(project, 'notes.txt'), 'keep me');
    const refused = await run(node, [SOURCE_CONDITION_FLAG, 'scripts/archive.ts', '--out', project, '--snapshot', snapshot], {
      cwd: root,
      env,
    }).catch((e: { code: number; stderr: string }) => e);
    expect((refused as { code: number }).code).toBe(2);
    expect((refused as { stderr: string }).stderr).toMatch(/already holds files this tool did not write/);
    expect(await readFile(path.join(project, 'notes.txt'), 'utf8')).toBe('keep me');

    if (!hasChromium) return noChromium();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const failed: string[] = [];
      page.on('requestfailed', (r) => failed.push(r.url()));
      await page.goto(pathToFileURL(path.join(out, 'index.html')).href);
      await page.waitForURL(/\/site\/index\.html$/);
      const styled = () => page.evaluate(() => getComputedStyle(document.querySelector('header')!).backgroundColor);
      expect(await styled()).not.toBe('rgba(0, 0, 0, 0)');
      const images = await page.evaluate(() =>
        [...document.images].filter((i) => i.loading !== 'lazy').map((i) => i.complete && i.naturalWidth > 0),
      );
      expect(images.length).toBeGreaterThan(0);
      expect(images.every(Boolean)).toBe(true);
      await page.locator('main a[href$="/index.html"]').filter({ hasText: /\S/ }).first().click();
      await page.waitForLoadState('load');
      expect(page.url()).toMatch(/\/index\.html$/);
      expect(await styled()).not.toBe('rgba(0, 0, 0, 0)');
      expect(failed).toEqual([]);
      await expectArchiveEventPhases(browser, site);
    } finally {
      await browser.close();
    }
  }, 600_000);

  it('rebuilds and deploys when the emulator sends a signed publish event to the receiver run as the service recipe says, stops gracefully on SIGTERM mid-build, and sends the API key while writing it to no file, cache or log line', async () => {
    const secret = `whsec_${Buffer.from('pressroom-static webhook test key').toString('base64')}`;
    const key = 'sk_live_webhook_build_KEY_5512';
    const api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE, readKey: key });
    const out = path.join(tmp, 'webhook-site');
    const env = {
      ...process.env,
      PRESSROOM_SNAPSHOT: '',
      PRESSROOM_API_URL: api.url,
      PRESSROOM_ID: String(api.pressroom.id),
      PRESSROOM_API_KEY: key,
      PRESSROOM_SITE_URL: 'https://press.example.test',
      PRESSROOM_WEBHOOK_SECRET: secret,
      // The deploy command sees the site folder, and neither the API key nor the webhook secret.
      // It also gets the build's change report (what to purge from a CDN).
      PRESSROOM_DEPLOY_COMMAND:
        'cp "$PRESSROOM_SITE_DIR/index.html" "$PRESSROOM_SITE_DIR.deployed.html" && cp "$PRESSROOM_CHANGES" "$PRESSROOM_SITE_DIR.changes-seen.json" && printf %s "$PRESSROOM_WEBHOOK_SECRET$PRESSROOM_API_KEY" > "$PRESSROOM_SITE_DIR.secret-seen"',
    };
    // The service recipe of docs/webhooks.md: the pinned Node binary runs the receiver itself (no npm in between).
    const receiver = spawnReceiver(path.join(root, 'node_modules', '.bin', 'node'), out, env);
    const { waitFor } = receiver;
    try {
      const url = await subscribeReceiver(receiver, api.url, secret);
      const kit = (
        (await (
          await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/media_kits?limit=1`, { headers: { authorization: `Bearer ${key}` } })
        ).json()) as { data: Array<{ id: number; permalink: string }> }
      ).data[0]!;
      const unpublished = await fetch(`${api.url}/v1/media_kits/${kit.id}/unpublish.json`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${api.managementKey}` },
      });
      expect(unpublished.status).toBe(200);

      // SIGTERM, as a service manager stops it, in the middle of the build: no more deliveries,
      // the build and deploy finish, then the receiver exits 0 and frees its port.
      await waitFor(/build: .*loaded \d+ collections/, 300_000);
      const health = (await (await fetch(`${url}/healthz`)).json()) as { data: { state: string } };
      expect(health.data.state).toBe('building');
      receiver.process.kill('SIGTERM');
      await waitFor(/webhooks: stopping: no more deliveries; waiting for the running build and deploy/, 30_000);
      await new Promise((resolve) => receiver.process.once('exit', resolve));
      expect(receiver.process.exitCode).toBe(0);
      expect(receiver.output()).toMatch(/webhooks: done: .*\(1 delivery\)/);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
      expect(receiver.output()).toMatch(/media_kit\.unpublished \S+ → build scheduled/);
      expect(receiver.output()).toMatch(/webhooks: done: built .* and deployed/);
      expect(receiver.output()).toMatch(/build: .*page\(s\) built/);
      expect(existsSync(path.join(out, 'index.html'))).toBe(true);
      expect(existsSync(`${out}.deployed.html`)).toBe(true);
      expect(await readFile(`${out}.secret-seen`, 'utf8')).toBe('');
      expect(await readFile(`${out}.changes-seen.json`, 'utf8')).toBe(await readFile(`${out}.changes.json`, 'utf8'));
      expect(JSON.parse(await readFile(`${out}.changes.json`, 'utf8'))).toMatchObject({
        format: 'pressroom-changes/1',
        previous: false,
        removed: [],
      });
      expect(existsSync(path.join(out, 'media-kits', kit.permalink.split('/').pop()!, 'index.html'))).toBe(false);
      expect(existsSync(path.join(out, 'media-kits', 'index.html'))).toBe(true);
      expect(receiver.output()).not.toContain(secret);
      expect(receiver.output()).not.toContain(key);
      await expectKeyNowhere(key, out, api);
    } finally {
      if (receiver.process.exitCode === null) {
        receiver.process.kill('SIGKILL');
        await new Promise((resolve) => receiver.process.once('exit', resolve));
      }
      await api.close();
    }
  }, 600_000);

  it.skipIf(!hasChromium)(
    'renders a release whose body the API sent hostile with none of it running in Chromium',
    async () => {
      // The API answer itself carries the attack: rewrite one release's body_html in a copy of the snapshot.
      const hostile = path.join(tmp, 'hostile-snapshot');
      await cp(snapshot, hostile, { recursive: true });
      const manifest = await readManifest(hostile);
      const entry = manifest.entries.find((e) => /\/press_releases\?.*includes=/.test(e.url))!;
      const body = JSON.parse(await readFile(path.join(hostile, 'files', entry.sha256), 'utf8')) as {
        data: Array<{ id: number; permalink: string; body_html: string }>;
      };
      const victim = body.data[0]!;
      victim.body_html = `<p>Before the attack.</p>${HOSTILE.join('\n')}<p>After the attack.</p>`;
      const bytes = Buffer.from(JSON.stringify(body));
      Object.assign(entry, { sha256: sha256Hex(bytes), bytes: bytes.length });
      await writeFile(path.join(hostile, 'files', entry.sha256), bytes);
      await writeFile(path.join(hostile, 'manifest.json'), JSON.stringify(manifest));

      const out = path.join(tmp, 'hostile-site');
      await run(node, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out], {
        cwd: root,
        env: { ...process.env, PRESSROOM_SNAPSHOT: hostile, PRESSROOM_API_URL: '' },
      });
      const html = await readFile(path.join(out, victim.permalink, 'index.html'), 'utf8');
      expect(html).toContain('Before the attack.');
      expect(html).toContain('After the attack.');
      expect(html).not.toMatch(/<script(?![^>]*type="application\/ld\+json")[^>]*>[^<]*PWNED/i);
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).not.toMatch(/javascript:/i);

      const [browser, server] = await Promise.all([launchChromium(), serveStatic(out)]);
      try {
        const w = await watchedPage(browser, server.origin);
        const url = `${server.origin}${victim.permalink}/`;
        await w.page.goto(url, { waitUntil: 'load' });
        const body = w.page.locator('article .prose *');
        const count = await body.count();
        for (let i = 0; i < count; i++) {
          const el = body.nth(i);
          if (!(await el.isVisible())) continue;
          await el.hover({ timeout: 500 }).catch(() => {});
          await el.focus({ timeout: 500 }).catch(() => {});
        }
        const links = await w.page.locator('article .prose a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
        expect(links.length).toBeGreaterThan(2);
        for (const href of links) expect(href).toMatch(/^(https?:\/\/|mailto:|tel:|#|\/(?!\/))/i);
        for (const { href, pwned } of await clickEveryLink(w, url, 'article .prose a')) expect(pwned, `after clicking ${href}`).toBeNull();
        expect(await pwnedMarker(w.page)).toBeNull();
        expect(w.dialogs).toEqual([]);
        expect(w.consoleMessages.filter((m) => m.includes('PWNED'))).toEqual([]);
        expect(w.pageErrors).toEqual([]);
        await w.context.close();
      } finally {
        await browser.close();
        await server.close();
      }
    },
    600_000,
  );
});

buildDayTests(() => ({ root, tmp, snapshot }));
dataPolicyBuildTests(() => ({ root, tmp }));
noChangeTests(() => ({ root, tmp }));

/**
 * The API key the build sent (every request to the emulator carried it) is in no file of the site
 * `out`, nothing the build keeps beside it (its fingerprint, with no salted hash either: the key is
 * no input; its reports) and nothing in the project's HTTP cache.
 */
async function expectKeyNowhere(key: string, out: string, api: { url: string }): Promise<void> {
  const files = Object.keys(await tree(out));
  expect(files.length).toBeGreaterThan(100);
  for (const file of files) expect((await readFile(path.join(out, file))).includes(key), file).toBe(false);
  for (const beside of ['fingerprint.json', 'changes.json', 'data-report.json'])
    expect((await readFile(`${out}.${beside}`, 'utf8')).includes(key), beside).toBe(false);
  expect(
    Object.keys((JSON.parse(await readFile(`${out}.fingerprint.json`, 'utf8')) as { configuration: object }).configuration),
  ).not.toContain('PRESSROOM_API_KEY');
  const cache = path.join(root, '.cache', 'pressroom-http');
  for (const entry of await readdir(cache, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) expect((await readFile(path.join(entry.parentPath, entry.name))).includes(key), entry.name).toBe(false);
  }
  const log = (await (await fetch(`${api.url}/_emulator/requests?path_prefix=/v1`)).json()) as { data: Array<{ auth: string }> };
  expect(log.data.length).toBeGreaterThan(10);
  expect(log.data.every((e) => e.auth === 'bearer')).toBe(true);
}
