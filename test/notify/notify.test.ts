/**
 * Telling readers and crawlers what changed (notify/): which URLs a change report
 * announces, the requests as WebSub and IndexNow define them, sent to local
 * servers that check them as the real services do, failures as one warning line
 * each that fail nothing, and when they are sent: after the build's swap, or
 * after the deploy when one is set (the receiver), never for the demo, never
 * for a site that asks not to be indexed (IndexNow), never without a change.
 * The IndexNow key is in no line. The same site built with both set: the
 * receiver test of test/build/builds.test.ts.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeReport, changeReportPath, writeChangeReport } from '../../scripts/change-report.ts';
import type { Tree } from '../../scripts/output-tree.ts';
import { loadConfig } from '../../src/config/environment.ts';
import indexNowKey from '../../src/integrations/indexnow-key.ts';
import { buildAndDeploy } from '../../webhook-receiver/build-and-deploy.ts';
import { INDEXNOW_BATCH, indexNowSubmissions } from '../../notify/indexnow.ts';
import { notifyAfterBuild, notifyAfterDeploy, notifyChanges, notifySettingsOf, type NotifyLog } from '../../notify/notify.ts';
import { announcementOf, isSubscriptionFeed, reportedChanges } from '../../notify/urls.ts';
import { publishPing } from '../../notify/websub.ts';
import { startHub, startIndexNow, type ProtocolServer, type Submission } from './servers.ts';

const SITE = 'https://press.example.test';
const KEY = 'f3a9c2e1-7b4d-4c8e-KEY-0123456789';

/** What a build's change report from `before` to `after` says changed. */
const changesOf = (...args: Parameters<typeof changeReport>) => reportedChanges(changeReport(...args));

const tree = (files: Record<string, string>): Tree =>
  new Map(Object.entries(files).map(([name, sha256]) => [name, { sha256, size: 1, mtimeMs: 1 }]));

const BEFORE = tree({
  'index.html': 'home',
  '404.html': 'e',
  'robots.txt': 'robots',
  'rss.xml': 'r',
  'atom.xml': 'a',
  'feed.json': 'j',
  'feeds/nl/rss.xml': 'n',
  'feeds/archive/1/rss.xml': 'x',
  'feeds/tags/awards/atom.xml': 't',
  '820001-launch/index.html': 'p',
  '820001-launch/index.md': 'm',
  'old-release/index.html': 'o',
  '_astro/app.css': 'c',
});
/** A release edited, one added, one removed: the home page, its page, three subscription feeds, an archive changed. */
const AFTER = tree({
  'index.html': 'home2',
  '404.html': 'e2',
  'robots.txt': 'robots',
  'rss.xml': 'r2',
  'atom.xml': 'a2',
  'feed.json': 'j',
  'feeds/nl/rss.xml': 'n2',
  'feeds/archive/1/rss.xml': 'x2',
  'feeds/tags/awards/atom.xml': 't2',
  'feeds/tags/new-tag/rss.xml': 'nt',
  '820001-launch/index.html': 'p2',
  '820001-launch/index.md': 'm2',
  'new-release/index.html': 'n',
  '_astro/app2.css': 'c2',
});

const FEEDS = [
  `${SITE}/atom.xml`,
  `${SITE}/feeds/nl/rss.xml`,
  `${SITE}/feeds/tags/awards/atom.xml`,
  `${SITE}/feeds/tags/new-tag/rss.xml`,
  `${SITE}/rss.xml`,
];
const PAGES = [`${SITE}/`, `${SITE}/820001-launch/`, `${SITE}/new-release/`, `${SITE}/old-release/`];

function recordingLog() {
  const lines = { info: [] as string[], warn: [] as string[] };
  const log: NotifyLog = { info: (line) => lines.info.push(line), warn: (line) => lines.warn.push(line) };
  return { lines, log, all: () => [...lines.info, ...lines.warn] };
}

describe('what a change report announces', () => {
  it('the subscription feeds added or changed, and every page added, changed or removed, absolute', () => {
    expect(announcementOf(changesOf(BEFORE, AFTER, SITE))).toEqual({ feeds: FEEDS, pages: PAGES });
    // Under a path, on the site URL's path; the page as every link names it.
    const underPath = announcementOf(changesOf(BEFORE, AFTER, 'https://example.test/press/'));
    expect(underPath.pages[0]).toBe('https://example.test/press/');
    expect(underPath.feeds).toContain('https://example.test/press/feeds/tags/awards/atom.xml');
    expect(announcementOf(changesOf(AFTER, AFTER, SITE))).toEqual({ feeds: [], pages: [] });
  });

  it('knows the subscription documents from the archives, as src/lib/feed-paths.ts lays them out', () => {
    for (const file of ['rss.xml', 'atom.xml', 'feed.json', 'feeds/nl/feed.json', 'feeds/pt-BR/rss.xml', 'feeds/tags/archive/rss.xml'])
      expect(isSubscriptionFeed(file), file).toBe(true);
    for (const file of [
      'feeds/archive/1/rss.xml',
      'feeds/nl/archive/2/atom.xml',
      'feeds/tags/x/archive/3/feed.json',
      'releases/rss.xml',
      'rss.xsl',
    ])
      expect(isSubscriptionFeed(file), file).toBe(false);
  });
});

describe('the requests', () => {
  it('WebSub: one form-encoded publish ping per feed', () => {
    expect(publishPing(`${SITE}/feeds/tags/r%26d/rss.xml`).toString()).toBe(
      'hub.mode=publish&hub.url=https%3A%2F%2Fpress.example.test%2Ffeeds%2Ftags%2Fr%2526d%2Frss.xml',
    );
  });

  it('IndexNow: host, key, the key file on the site URL, and at most 10,000 URLs per submission', () => {
    const urls = Array.from({ length: INDEXNOW_BATCH + 1 }, (_, i) => `https://example.test/press/${i}/`);
    const [first, second, ...rest] = indexNowSubmissions('https://example.test/press', KEY, urls);
    expect(rest).toEqual([]);
    expect({ ...first!, urlList: first!.urlList.length }).toEqual({
      host: 'example.test',
      key: KEY,
      keyLocation: `https://example.test/press/${KEY}.txt`,
      urlList: 10_000,
    });
    expect(second!.urlList).toEqual([`https://example.test/press/${INDEXNOW_BATCH}/`]);
    expect(indexNowSubmissions(SITE, KEY, [])).toEqual([]);
  });

  it('the key file: the key alone at /<key>.txt, never over a file of the site', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'indexnow-key-'));
    const done = (config: ReturnType<typeof loadConfig>) =>
      (indexNowKey({ config }).hooks['astro:build:done'] as (o: { dir: URL }) => Promise<void>)({ dir: pathToFileURL(`${dir}/`) });
    try {
      await done(loadConfig({}));
      expect(existsSync(path.join(dir, `${KEY}.txt`))).toBe(false);
      await done(loadConfig({ PRESSROOM_INDEXNOW_KEY: KEY }));
      expect(await readFile(path.join(dir, `${KEY}.txt`), 'utf8')).toBe(KEY);
      await writeFile(path.join(dir, 'llms-full.txt'), '# the site');
      await expect(done(loadConfig({ PRESSROOM_INDEXNOW_KEY: 'llms-full' }))).rejects.toThrow(
        'PRESSROOM_INDEXNOW_KEY names a file the site already has (llms-full.txt); choose another key',
      );
      expect(await readFile(path.join(dir, 'llms-full.txt'), 'utf8')).toBe('# the site');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('telling a hub and IndexNow', () => {
  let hub: ProtocolServer<string[]>;
  let indexNow: ProtocolServer<Submission>;
  let siteDir: string;
  beforeEach(async () => {
    [hub, indexNow] = await Promise.all([startHub(), startIndexNow()]);
    siteDir = await mkdtemp(path.join(os.tmpdir(), 'notify-site-'));
    await writeFile(path.join(siteDir, 'robots.txt'), `User-agent: *\nAllow: /\n\nSitemap: ${SITE}/sitemap-index.xml\n`);
  });
  afterEach(async () => {
    await Promise.all([hub.close(), indexNow.close()]);
    await rm(siteDir, { recursive: true, force: true });
  });
  const settings = () => ({ websubHub: hub.url, indexNow: { key: KEY, endpoint: indexNow.url } });

  it('pings the hub once per changed feed and submits the changed pages in one batch', async () => {
    const { lines, log, all } = recordingLog();
    await notifyChanges(changesOf(BEFORE, AFTER, SITE), settings(), siteDir, log);
    expect(hub.refused).toEqual([]);
    expect(hub.received.map((topics) => topics.length)).toEqual(FEEDS.map(() => 1));
    expect(hub.received.flat().sort()).toEqual(FEEDS);
    expect(indexNow.refused).toEqual([]);
    expect(indexNow.received).toEqual([{ host: 'press.example.test', key: KEY, keyLocation: `${SITE}/${KEY}.txt`, urlList: PAGES }]);
    expect(lines.warn).toEqual([]);
    expect(lines.info).toEqual([
      `notify: WebSub hub ${hub.url} told of 5 changed feeds`,
      `notify: IndexNow ${indexNow.url} told of 4 changed pages`,
    ]);
    expect(all().join('\n')).not.toContain(KEY);
  });

  it('a refusal is one warning line per service naming the status, and nothing thrown', async () => {
    hub.status = 503;
    indexNow.status = 422;
    const { lines, log, all } = recordingLog();
    await notifyChanges(changesOf(BEFORE, AFTER, SITE), settings(), siteDir, log);
    expect(hub.received).toHaveLength(5);
    expect(lines.info).toEqual([]);
    expect(lines.warn).toHaveLength(2);
    expect(lines.warn[0]).toMatch(
      new RegExp(
        `^notify: warning: the WebSub hub ${hub.url} was not told of 5 of 5 changed feeds \\(first: ${SITE}/atom\\.xml: HTTP 503\\); `,
      ),
    );
    expect(lines.warn[1]).toMatch(
      /^notify: warning: IndexNow \S+ was not told of 4 of 4 changed pages \(first: 4 URLs: HTTP 422 \(the URLs do not belong/,
    );
    expect(all().join('\n')).not.toContain(KEY);
  });

  it('a hub that cannot be reached and an endpoint that never answers: one warning line each, within the time limit', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const gone = `http://127.0.0.1:${(await hubThatWasClosed()).port}/hub`;
    try {
      const { lines, log, all } = recordingLog();
      const started = Date.now();
      await notifyChanges(
        changesOf(BEFORE, AFTER, SITE),
        {
          websubHub: gone,
          indexNow: { key: KEY, endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/indexnow` },
          timeoutMs: 300,
        },
        siteDir,
        log,
      );
      expect(Date.now() - started).toBeLessThan(5000);
      expect(lines.warn).toHaveLength(2);
      expect(lines.warn[0]).toMatch(
        /^notify: warning: the WebSub hub \S+ was not told of 5 of 5 changed feeds \(first: \S+: .*ECONNREFUSED/,
      );
      expect(lines.warn[1]).toMatch(
        /^notify: warning: IndexNow \S+ was not told of 4 of 4 changed pages \(first: 4 URLs: no answer within 0\.3 s\)/,
      );
      expect(all().join('\n')).not.toContain(KEY);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('announces nothing without a change, or without an earlier site to compare with', async () => {
    for (const report of [changesOf(AFTER, AFTER, SITE), changesOf(undefined, AFTER, SITE)]) {
      const { lines, log } = recordingLog();
      await notifyChanges(report, settings(), siteDir, log);
      expect(lines.warn).toEqual([]);
      expect(lines.info).toHaveLength(1);
    }
    expect(hub.raw).toEqual([]);
    expect(indexNow.raw).toEqual([]);
  });

  it('never submits a site that asks not to be indexed (a noindex press room, the demo) to IndexNow; its feeds still reach the hub', async () => {
    await writeFile(path.join(siteDir, 'robots.txt'), 'User-agent: *\nDisallow: /press/\n\n# The press room asks not to be indexed\n');
    const { lines, log } = recordingLog();
    await notifyChanges(changesOf(BEFORE, AFTER, 'https://example.test/press'), settings(), siteDir, log);
    expect(indexNow.raw).toEqual([]);
    expect(hub.received).toHaveLength(5);
    expect(lines.info).toContain('notify: IndexNow not told: the site asks not to be indexed (robots.txt)');
  });

  it('after a deploy: the files it uploaded or deleted, a feed only while the site has it; a first deploy or no site URL announces nothing', async () => {
    await mkdir(path.join(siteDir, 'feeds', 'nl'), { recursive: true });
    for (const file of ['rss.xml', 'feeds/nl/atom.xml', 'index.html']) await writeFile(path.join(siteDir, file), 'x');
    const files = ['index.html', 'old-release/index.html', 'rss.xml', 'feeds/nl/atom.xml', 'feeds/tags/gone/rss.xml', '_astro/a.css'];
    const { lines, log } = recordingLog();
    await notifyAfterDeploy({ site: SITE, files, first: false }, settings(), siteDir, log);
    expect(hub.received.flat().sort()).toEqual([`${SITE}/feeds/nl/atom.xml`, `${SITE}/rss.xml`]);
    expect(indexNow.received.map((s) => s.urlList)).toEqual([[`${SITE}/`, `${SITE}/old-release/`]]);
    expect(lines.warn).toEqual([]);
    await notifyAfterDeploy({ site: SITE, files, first: true }, settings(), siteDir, log);
    await notifyAfterDeploy({ site: undefined, files, first: false }, settings(), siteDir, log);
    expect(hub.received).toHaveLength(2);
    expect(indexNow.received).toHaveLength(1);
    expect(lines.warn).toEqual([
      'notify: warning: nothing announced: no change report beside the site and no PRESSROOM_SITE_URL to make URLs from',
    ]);
  });

  it('after a build: only when set, not for the demo, and not before a deploy command has put the site online', async () => {
    const env = {
      PRESSROOM_API_URL: 'https://api.example.test',
      PRESSROOM_ID: '1',
      PRESSROOM_SITE_URL: SITE,
      PRESSROOM_WEBSUB_HUB: hub.url,
      PRESSROOM_INDEXNOW_KEY: KEY,
      PRESSROOM_INDEXNOW_ENDPOINT: indexNow.url,
    };
    const changes = changeReport(BEFORE, AFTER, SITE);
    const after = async (vars: Record<string, string>, upstream: 'api' | 'demo' = 'api') => {
      const { lines, log } = recordingLog();
      await notifyAfterBuild(changes, { config: loadConfig(vars), upstream, siteDir, log });
      return lines;
    };
    expect(notifySettingsOf(loadConfig({ PRESSROOM_API_URL: 'https://api.example.test', PRESSROOM_ID: '1' }))).toBeUndefined();
    expect(await after({ ...env, PRESSROOM_DEPLOY_COMMAND: 'npm run deploy -- s3://press' })).toEqual({
      info: ['notify: left to the webhook receiver, after PRESSROOM_DEPLOY_COMMAND has put the site online'],
      warn: [],
    });
    expect(await after(env, 'demo')).toEqual({ info: [], warn: [] });
    expect(hub.raw).toEqual([]);
    expect(indexNow.raw).toEqual([]);
    const { PRESSROOM_INDEXNOW_KEY: _k, PRESSROOM_INDEXNOW_ENDPOINT: _e, ...hubOnly } = env;
    expect((await after(hubOnly)).info).toEqual([`notify: WebSub hub ${hub.url} told of 5 changed feeds`]);
    expect(indexNow.raw).toEqual([]);
    expect((await after(env)).info).toHaveLength(2);
    expect(indexNow.received).toHaveLength(1);
  });
});

describe('the webhook receiver with a deploy command', () => {
  let tmp: string;
  let out: string;
  let buildScript: string;
  let hub: ProtocolServer<string[]>;
  /** Whether the deploy had finished when each ping reached the hub. */
  const deployedAtPing: boolean[] = [];
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'notify-receiver-'));
    out = path.join(tmp, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'robots.txt'), 'User-agent: *\nAllow: /\n');
    // A build stand-in: the change report a real build would have written is already beside the site.
    buildScript = path.join(tmp, 'build.mjs');
    await writeFile(buildScript, 'console.log("build: changes: 4 added, 7 changed, 1 removed");\n');
    await writeChangeReport(out, changeReport(BEFORE, AFTER, SITE));
    hub = await startHub(() => deployedAtPing.push(existsSync(`${out}.deployed`)));
  });
  afterAll(async () => {
    await hub.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const receiverRun = (deployCommand: string) => {
    const lines: string[] = [];
    const builder = buildAndDeploy({
      root: tmp,
      out,
      buildScript,
      changesFile: changeReportPath(out),
      deployCommand,
      env: { PATH: process.env.PATH },
      log: (line) => lines.push(line),
      notify: { websubHub: hub.url },
    });
    return { lines, run: builder.run };
  };

  it('tells the hub once the deploy succeeded, and nothing when it failed', async () => {
    const failed = receiverRun('exit 3');
    expect(await failed.run()).toMatchObject({ ok: false });
    expect(hub.raw).toEqual([]);

    const deployed = receiverRun('sleep 0.2; touch "$PRESSROOM_SITE_DIR.deployed"');
    expect(await deployed.run()).toMatchObject({ ok: true, summary: expect.stringMatching(/and deployed$/) });
    expect(hub.received.flat().sort()).toEqual(FEEDS);
    expect(deployedAtPing).toEqual(FEEDS.map(() => true));
    expect(deployed.lines).toContain(`notify: WebSub hub ${hub.url} told of 5 changed feeds`);
  });
});

/** A port nothing listens on any more. */
async function hubThatWasClosed(): Promise<{ port: number }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return { port };
}
