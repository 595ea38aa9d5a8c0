/**
 * Rebuilds end to end, registered into test/build/builds.test.ts (whose builds run one after
 * another): a small emulator press room over HTTP built into a temp folder, then
 *
 * - its first build, every module load recorded (record-modules.ts), never loaded the emulator or
 *   its generators (faker, pdf-lib, find-my-way): the real API's builds do without them;
 * - rebuilt with nothing changed: the no-change check confirms the site (exit 0, one line),
 *   renders nothing, writes nothing into it, and the change report lists nothing;
 * - rebuilt with --force: rendered again, the same bytes, a change report listing nothing;
 * - checked in-process (scripts/no-change.ts, what the build runs first) with one input changed
 *   at a time: configuration, code, the build day, an embargo, the site itself, an API answer,
 *   a media original: each one is a reason to render, named; a media original changed under the same
 *   address renders in full (no route record says which pages show it);
 * - rebuilt after one release changed, then after one was withdrawn: the change report lists
 *   exactly the files a tree diff of the two sites finds (pages, feeds, sitemaps, search files),
 *   the withdrawn release's page as removed;
 * - every build with a WebSub hub and IndexNow set (local servers speaking the protocols): the
 *   feeds name the hub, the site serves the key file, and the rebuild after the release changed
 *   told the hub of exactly its changed feeds and IndexNow of exactly its changed pages
 *   (notify/); the builds before it, with nothing to compare with or nothing changed, told nobody.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, stat, writeFile, rm, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE, manageEmulator } from '../helpers/emulator.ts';
import { CODE_PATHS, codeInputs, configurationOf } from '../../scripts/build-inputs.ts';
import type { ChangeReport } from '../../scripts/change-report.ts';
import { readFingerprint, type Fingerprint } from '../../scripts/fingerprint.ts';
import { confirmUnchanged, type Verdict } from '../../scripts/no-change.ts';
import { readTree } from '../../scripts/output-tree.ts';
import { announcementOf, reportedChanges } from '../../notify/urls.ts';
import { startHub, startIndexNow, type ProtocolServer, type Submission } from '../notify/servers.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const execFileP = promisify(execFile);

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Each file's bytes, mtime and inode: a site nobody wrote to keeps all three. */
async function untouched(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const [name, file] of (await readTree(dir)).tree)
    files[name] = `${file.sha256} ${file.mtimeMs} ${(await stat(path.join(dir, name))).ino}`;
  return files;
}

/** path → content hash. */
async function hashes(dir: string): Promise<Map<string, string>> {
  return new Map([...(await readTree(dir)).tree].map(([name, file]) => [name, file.sha256]));
}

/** What a tree diff of two sites finds, in the report's shape. */
function treeDiff(before: Map<string, string>, after: Map<string, string>) {
  const sorted = (list: string[]) => list.sort((a, b) => (a < b ? -1 : 1));
  return {
    added: sorted([...after.keys()].filter((f) => !before.has(f))),
    changed: sorted([...after.keys()].filter((f) => before.has(f) && before.get(f) !== after.get(f))),
    removed: sorted([...before.keys()].filter((f) => !after.has(f))),
  };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const listed = (report: ChangeReport) => ({
  added: report.added.map((e) => e.path),
  changed: report.changed.map((e) => e.path),
  removed: report.removed.map((e) => e.path),
});

export function noChangeTests(setup: () => { root: string; tmp: string }): void {
  describe('rebuilds: the no-change check and the change report', () => {
    let api: RunningEmulator;
    let env: Record<string, string>;
    let out: string;
    let hub: ProtocolServer<string[]>;
    let indexNow: ProtocolServer<Submission>;
    const site = 'https://press.example.com';
    const indexNowKey = 'c0ffee00-notify-test-key';

    beforeAll(async () => {
      [api, hub, indexNow] = await Promise.all([
        startEmulator({ scale: 8, frozenClock: true, cacheDir: TEST_MEDIA_CACHE }),
        startHub(),
        startIndexNow(),
      ]);
      env = {
        PRESSROOM_API_URL: api.url,
        PRESSROOM_ID: String(api.pressroom.id),
        PRESSROOM_SITE_URL: site,
        PRESSROOM_WEBSUB_HUB: hub.url,
        PRESSROOM_INDEXNOW_KEY: indexNowKey,
        PRESSROOM_INDEXNOW_ENDPOINT: indexNow.url,
      };
      out = path.join(setup().tmp, 'rebuilt');
    });
    afterAll(async () => {
      await Promise.all([api?.close(), hub?.close(), indexNow?.close()]);
    });

    /** A build into `out`; with `recordModulesTo`, every module the process loads is listed in that file (record-modules.ts). */
    const build = async (args: string[] = [], recordModulesTo?: string): Promise<Ran> => {
      const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, ...(recordModulesTo && { RECORD_MODULES_TO: recordModulesTo }) };
      for (const name of Object.keys(childEnv))
        if ((name.startsWith('PRESSROOM_') && !(name in env)) || name === 'SOURCE_DATE_EPOCH') delete childEnv[name];
      const hook = recordModulesTo ? ['--import', pathToFileURL(path.join(setup().root, 'test', 'build', 'record-modules.ts')).href] : [];
      return execFileP(process.execPath, [SOURCE_CONDITION_FLAG, ...hook, 'scripts/build.ts', '--out', out, ...args], {
        cwd: setup().root,
        env: childEnv,
        maxBuffer: 64 * 1024 * 1024,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
    };
    const report = async (): Promise<ChangeReport> => JSON.parse(await readFile(`${out}.changes.json`, 'utf8')) as ChangeReport;
    const manage = (method: string, route: string, body?: unknown) => manageEmulator(api, method, route, body);
    const newestReleases = async () =>
      (
        (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=3`)).json()) as {
          data: Array<{ id: number; permalink: string; title: string }>;
        }
      ).data;
    const modulesRecord = () => path.join(setup().tmp, 'loaded-modules.txt');
    const pageOf = (permalink: string) => `${permalink.replace(/^\//, '')}/index.html`;

    it('confirms an unchanged site without rendering or writing anything: exit 0, one line, the same files untouched, a change report that lists nothing', async () => {
      const first = await build([], modulesRecord());
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^build: rendering: no fingerprint beside /m);
      const created = await report();
      const built = await hashes(out);
      expect(created.previous).toBe(false);
      expect(created.counts).toEqual({ added: built.size, changed: 0, removed: 0 });
      expect(created.purge).toContain(`${site}/`);

      const before = await untouched(out);
      const again = await build();
      expect(again.code, again.stderr).toBe(0);
      // One line, and nothing from Astro, the loaders or the image pipeline: nothing ran.
      expect(again.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^build: nothing changed since \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z: ${escaped(out)} confirmed \\(\\d+ API answers, [1-9]\\d* media originals, ${built.size} files checked in [\\d.]+ s\\)$`,
          ),
        ),
      ]);
      expect(await untouched(out)).toEqual(before);
      expect(await report()).toMatchObject({
        previous: true,
        counts: { added: 0, changed: 0, removed: 0 },
        added: [],
        changed: [],
        removed: [],
        purge: [],
      });
    }, 600_000);

    // A static import of the emulator anywhere on a build's path would load it and its generators.
    it('built against a configured API without loading the emulator or its dependencies (faker, pdf-lib, find-my-way)', async () => {
      const loaded = (await readFile(modulesRecord(), 'utf8')).split('\n');
      // The recording sees what Vite hands to Node: the loaders' own dependencies are there.
      expect(loaded.some((url) => url.includes('/node_modules/p-retry/'))).toBe(true);
      expect(loaded.some((url) => url.includes('/content-loaders/'))).toBe(true);
      const emulatorDir = pathToFileURL(path.join(setup().root, 'emulator')).href + '/';
      const emulatorModules = loaded.filter(
        (url) => url.startsWith(emulatorDir) || /\/node_modules\/(@faker-js\/faker|pdf-lib|find-my-way)\//.test(url),
      );
      expect(emulatorModules).toEqual([]);
    });

    it('renders with --force although nothing changed: the same bytes, and a change report that lists nothing', async () => {
      const before = await hashes(out);
      const forced = await build(['--force']);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toMatch(/^build: rendering: --force was given$/m);
      expect(forced.stdout).toMatch(/page\(s\) built in/);
      expect(await hashes(out)).toEqual(before);
      expect(forced.stdout).toMatch(/^build: changes: no file changed; report: /m);
      expect(await report()).toMatchObject({ previous: true, counts: { added: 0, changed: 0, removed: 0 }, purge: [] });
      // And the site it recorded is confirmed by the next run.
      expect((await build()).stdout).toMatch(/^build: nothing changed since /);
      // A first build has nothing to compare with, and nothing changed since: nobody was told anything.
      expect(hub.raw).toEqual([]);
      expect(indexNow.raw).toEqual([]);
    }, 600_000);

    it('names a reason to render for each input that changed: configuration, code, the build day, an embargo, the site itself, an API answer, a media original', async () => {
      const { root, tmp } = setup();
      const recorded = (await readFingerprint(out)) as Fingerprint;
      const builtAt = Date.parse(recorded.builtAt);
      const code = await codeInputs(root);
      const check = (
        changes: { env?: Record<string, string>; out?: string; now?: number; code?: typeof code; recorded?: Fingerprint } = {},
      ): Promise<Verdict> => {
        const checkEnv = changes.env ?? env;
        return confirmUnchanged({
          root,
          out: changes.out ?? out,
          env: checkEnv,
          upstream: 'api',
          code: changes.code ?? code,
          configuration: configurationOf(checkEnv, 'api'),
          recorded: changes.recorded ?? recorded,
          now: changes.now ?? builtAt,
        });
      };
      const reason = async (changes: Parameters<typeof check>[0]) => {
        const verdict = await check(changes);
        return verdict.unchanged ? 'unchanged' : verdict.reason;
      };
      expect(await check()).toMatchObject({ unchanged: true });

      // Configuration: a value that changes the site, not one that changes how it is fetched.
      expect(await reason({ env: { ...env, PRESSROOM_SITE_URL: 'https://news.example.com' } })).toBe('PRESSROOM_SITE_URL changed');
      expect(await reason({ env: { ...env, PRESSROOM_CONCURRENCY: '2' } })).toBe('unchanged');
      // Code: a copy of the checkout with one source file edited.
      const copy = path.join(tmp, 'code-copy');
      for (const entry of CODE_PATHS) {
        await cp(path.join(root, entry), path.join(copy, entry), { recursive: true });
      }
      expect(await reason({ code: await codeInputs(copy) })).toBe('unchanged');
      await appendFile(path.join(copy, 'src', 'lib', 'paths.ts'), '\n// an edit\n');
      expect(await reason({ code: await codeInputs(copy) })).toBe('the code changed (src/lib/paths.ts)');
      // The build day: the same build a day later.
      expect(await reason({ now: builtAt + 24 * 3600_000 })).toMatch(/^the build day is \d{4}-\d\d-\d\d, the site's is \d{4}-\d\d-\d\d$/);
      // An embargo the API sent that has lifted since.
      const lift = new Date(builtAt + 3600_000).toISOString();
      expect(await reason({ recorded: { ...recorded, nextEmbargoLift: lift }, now: builtAt + 2 * 3600_000 })).toBe(
        `an embargo lifted at ${lift}`,
      );
      expect(await reason({ recorded: { ...recorded, nextEmbargoLift: lift } })).toBe('unchanged');
      // The site itself, damaged after it was built (a copy with its fingerprint beside it).
      const damaged = path.join(tmp, 'rebuilt-copy');
      await cp(out, damaged, { recursive: true });
      expect(await reason({ out: damaged })).toBe('unchanged');
      await appendFile(path.join(damaged, 'index.html'), ' ');
      expect(await reason({ out: damaged })).toBe(`the site in ${damaged} is not as built: index.html was modified`);
      await rm(path.join(damaged, 'robots.txt'));
      await writeFile(path.join(damaged, 'index.html'), await readFile(path.join(out, 'index.html')));
      expect(await reason({ out: damaged })).toBe(`the site in ${damaged} is not as built: robots.txt is missing`);
      await rm(damaged, { recursive: true });
      expect(await reason({ out: damaged })).toBe(`there is no site in ${damaged}`);

      // A media original with new bytes under the same URL (the emulator's URLs never change).
      const original = recorded.media.find((m) => 'sha256' in m && m.url.includes('/media/images/'))!;
      const spec = api.store().world.assets.get(new URL(original.url).pathname) as { seed: number };
      spec.seed += 1;
      const before = await hashes(out);
      try {
        expect(await reason({})).toMatch(
          new RegExp(
            `^the media original ${escaped(original.url)} changed \\(bytes [0-9a-f]{12}… now, bytes ${(original as { sha256: string }).sha256.slice(0, 12)}… when built\\)$`,
          ),
        );
        // No partial build can follow: the route record does not say which pages show that original.
        // (Without telling the hub and IndexNow: a later case counts what they were told.)
        const rebuilt = await build(['--no-notify']);
        expect(rebuilt.code, rebuilt.stderr).toBe(0);
        expect(rebuilt.stdout).toMatch(/^build: rendering in full: a media original changed under the same address; /m);
        const after = await hashes(out);
        expect([...after].some(([name, sha]) => name.startsWith('_media/') && before.get(name) !== sha)).toBe(true);
      } finally {
        spec.seed -= 1;
      }
      // Built again from the original it had: the same bytes as before (it too renders in full).
      expect((await build(['--no-notify'])).stdout).toMatch(
        /^build: rendering in full: a media original changed under the same address; /m,
      );
      expect(await hashes(out)).toEqual(before);
      expect(await check()).toMatchObject({ unchanged: true });

      // An API answer: one release's summary edited upstream.
      const [release] = await newestReleases();
      await manage('PUT', `/v1/campaigns/${release!.id}`, {
        campaign: { medium_description: 'A summary edited after the site was built.' },
      });
      expect(await reason({})).toMatch(
        /^(the API answer \/v1\/pressrooms\/\d+\/\S+ changed|\d+ API answers differ \(first: \/v1\/pressrooms\/\d+\/\S+ changed\))$/,
      );
    }, 600_000);

    // One rebuild for two changes (each build costs seconds): the newest release retitled, the second withdrawn.
    it('reports exactly what a tree diff finds after one release changed and another was withdrawn: their pages, the feeds, the sitemap, the search files', async () => {
      const [release, second] = await newestReleases();
      const before = await hashes(out);
      await manage('PUT', `/v1/campaigns/${release!.id}`, { campaign: { title: 'A title changed after the site was built' } });
      await manage('PUT', `/v1/campaigns/${second!.id}/cancel`);
      const rebuilt = await build();
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect(rebuilt.stdout).toMatch(/^build: rendering: .*API answer/m);
      const after = await hashes(out);
      const changes = await report();
      expect(listed(changes)).toEqual(treeDiff(before, after));
      const [updated] = await newestReleases();
      expect(updated!.permalink).not.toBe(release!.permalink);
      expect(changes.removed.map((e) => e.path)).toContain(pageOf(release!.permalink));
      expect(changes.added.map((e) => e.path)).toContain(pageOf(updated!.permalink));
      const touched = [...changes.added, ...changes.changed].map((e) => e.path);
      expect(touched).toEqual(expect.arrayContaining(['index.html', 'rss.xml', 'atom.xml', 'feed.json']));
      expect(touched.some((f) => /^sitemap-\d+\.xml$/.test(f))).toBe(true);
      expect(touched.some((f) => f.startsWith('pagefind/'))).toBe(true);
      // Files that did not change are not there: most of the site.
      expect(changes.counts.added + changes.counts.changed + changes.counts.removed).toBeLessThan(after.size / 2);
      expect(changes.purge).toEqual(
        expect.arrayContaining([`${site}${updated!.permalink}/`, `${site}${release!.permalink}/`, `${site}/`, `${site}/rss.xml`]),
      );

      // Told once the new site was in place; the builds before it (a first one, unchanged ones) told nobody.
      const told = announcementOf(reportedChanges(changes));
      expect(told.feeds).toEqual(expect.arrayContaining([`${site}/rss.xml`, `${site}/atom.xml`, `${site}/feed.json`]));
      expect(told.pages).toEqual(expect.arrayContaining([`${site}${updated!.permalink}/`, `${site}${release!.permalink}/`, `${site}/`]));
      expect(hub.refused).toEqual([]);
      expect(hub.received.flat().sort()).toEqual(told.feeds);
      expect(indexNow.refused).toEqual([]);
      expect(indexNow.received).toEqual([
        { host: 'press.example.com', key: indexNowKey, keyLocation: `${site}/${indexNowKey}.txt`, urlList: told.pages },
      ]);
      expect(rebuilt.stdout).toMatch(
        new RegExp(`^notify: WebSub hub ${escaped(hub.url)} told of ${told.feeds.length} changed feeds$`, 'm'),
      );
      expect(rebuilt.stdout).toMatch(/^notify: IndexNow \S+ told of \d+ changed pages$/m);
      expect(rebuilt.stderr).not.toMatch(/notify: warning/);
      expect(rebuilt.stdout + rebuilt.stderr).not.toContain(indexNowKey);
      // What they fetch next: the key file, and feeds that name the hub.
      expect(await readFile(path.join(out, `${indexNowKey}.txt`), 'utf8')).toBe(indexNowKey);
      expect(await readFile(path.join(out, 'rss.xml'), 'utf8')).toContain(`<atom:link href="${hub.url}" rel="hub"/>`);

      // The withdrawn release: removed, its page and its Markdown twin, with what they were.
      const gone = pageOf(second!.permalink);
      expect(changes.removed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            path: gone,
            urls: [`${second!.permalink}/`, `${second!.permalink}/index.html`],
            previous: before.get(gone),
          }),
        ]),
      );
      expect(changes.removed.map((e) => e.path)).toContain(gone.replace(/index\.html$/, 'index.md'));
      expect(changes.purge).toContain(`${site}${second!.permalink}/`);
    }, 600_000);
  });
}
