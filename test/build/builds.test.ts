/**
 * Whole builds in child processes, one after another (builds share Astro's
 * cache folders, so they never run in parallel): offline press-archive
 * snapshots end to end — record the demo press room, build from the snapshot
 * twice with no API at all, byte-identical trees — and a build against an API
 * that requires a key, which must appear nowhere in the output or the logs.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { HOSTILE, PWN } from '../helpers/hostile-html.ts';
import { clickEveryLink, hasChromium, launchChromium, pwnedMarker, serveStatic, watchedPage } from '../browser/helpers.ts';
import { readManifest, sha256Hex } from '../../content-loaders/snapshot/manifest.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const node = process.execPath;
let tmp: string;
let snapshot: string;

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(await readFile(file)).digest('hex');
  }
  return out;
}

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
    const recorded = await run(node, ['scripts/snapshot.ts', '--out', snapshot], { cwd: root, env });
    expect(recorded.stdout).toMatch(/wrote .*: \d+ API responses, \d+ media originals/);

    // A dead API URL proves the build never asks the network: the snapshot wins.
    const offline = { ...process.env, PRESSROOM_SNAPSHOT: snapshot, PRESSROOM_API_URL: 'http://127.0.0.1:9', PRESSROOM_ID: '1' };
    const first = await run(node, ['scripts/build.ts', '--out', path.join(tmp, 'a')], { cwd: root, env: offline });
    expect(first.stdout).toMatch(/entries from the snapshot/);
    await run(node, ['scripts/build.ts', '--out', path.join(tmp, 'b')], { cwd: root, env: offline });
    const [a, b] = [await tree(path.join(tmp, 'a')), await tree(path.join(tmp, 'b'))];
    expect(Object.keys(a).length).toBeGreaterThan(1);
    expect(b).toEqual(a);

    // A build that cannot finish exits with an error and leaves the previous site exactly as it was.
    const broken = { ...offline, PRESSROOM_SNAPSHOT: path.join(tmp, 'no-such-snapshot') };
    const failed = await run(node, ['scripts/build.ts', '--out', path.join(tmp, 'a')], { cwd: root, env: broken, timeout: 120_000 }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/build failed: PRESSROOM_SNAPSHOT is not a readable snapshot.*\n.*left exactly as it was/);
    expect(await tree(path.join(tmp, 'a'))).toEqual(a);
  }, 600_000);

  it('sends the API key and writes it to no output file, cache or log line', async () => {
    const key = 'sk_live_build_SECRET_4471';
    const api = await startEmulator({ readKey: key, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    try {
      const out = path.join(tmp, 'keyed');
      const env = { ...process.env, PRESSROOM_SNAPSHOT: '', PRESSROOM_API_URL: api.url, PRESSROOM_ID: String(api.pressroom.id), PRESSROOM_API_KEY: key };
      const built = await run(node, ['scripts/build.ts', '--out', out], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
      expect(built.stdout).toMatch(/entries from the API/);
      expect(`${built.stdout}${built.stderr}`).not.toContain(key);
      const files = Object.keys(await tree(out));
      expect(files.length).toBeGreaterThan(100);
      for (const file of files) expect((await readFile(path.join(out, file))).includes(key), file).toBe(false);
      const cache = path.join(root, '.cache', 'pressroom-http');
      for (const entry of await readdir(cache, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) expect((await readFile(path.join(entry.parentPath, entry.name))).includes(key), entry.name).toBe(false);
      }
      const log = (await (await fetch(`${api.url}/_emulator/requests?path_prefix=/v1`)).json()) as { data: Array<{ auth: string }> };
      expect(log.data.length).toBeGreaterThan(10);
      expect(log.data.every((e) => e.auth === 'bearer')).toBe(true);
    } finally {
      await api.close();
    }
  }, 600_000);

  it.skipIf(!hasChromium)('renders a release whose body the API sent hostile with none of it running in Chromium', async () => {
    // The API answer itself carries the attack: rewrite one release's body_html in a copy of the snapshot.
    const hostile = path.join(tmp, 'hostile-snapshot');
    await cp(snapshot, hostile, { recursive: true });
    const manifest = await readManifest(hostile);
    const entry = manifest.entries.find((e) => /\/press_releases\?.*includes=/.test(e.url))!;
    const body = JSON.parse(await readFile(path.join(hostile, 'files', entry.sha256), 'utf8')) as { data: Array<{ id: number; permalink: string; body_html: string }> };
    const victim = body.data[0]!;
    victim.body_html = `<p>Before the attack.</p>${HOSTILE.join('\n')}<p>After the attack.</p>`;
    const bytes = Buffer.from(JSON.stringify(body));
    Object.assign(entry, { sha256: sha256Hex(bytes), bytes: bytes.length });
    await writeFile(path.join(hostile, 'files', entry.sha256), bytes);
    await writeFile(path.join(hostile, 'manifest.json'), JSON.stringify(manifest));

    const out = path.join(tmp, 'hostile-site');
    await run(node, ['scripts/build.ts', '--out', out], { cwd: root, env: { ...process.env, PRESSROOM_SNAPSHOT: hostile, PRESSROOM_API_URL: '' } });
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
    expect(PWN).toContain('__pwned');
  }, 600_000);
});
