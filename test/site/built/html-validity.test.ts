/**
 * The W3C Nu HTML Checker (vnu-jar, on Debian's Java: .ci/run installs
 * default-jre-headless) over one built page of every page type of the demo,
 * and the same pages of the offline archive made from it (links rewritten,
 * search from a folder): no error at all. One checker run over every file,
 * since starting Java is most of its cost.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { archiveCopy, type ArchiveCopy } from '../../helpers/archive-copy.ts';
import { loadPages, type BuiltPage } from '../helpers.ts';

const run = promisify(execFile);
const siteDir = inject('siteDir');
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

/** Every page type the site writes, by its path (the first page of each, in path order, is checked). */
const PAGE_TYPES: Record<string, RegExp> = {
  home: /^\/$/,
  release: /^\/\d+-[^/]+\/$/,
  releases: /^\/releases\/$/,
  // Numbered pages where the demo has them (listing-pages.ts: only a list of two pages' worth has any; its
  // archive years, tags and coverage hold fewer): their pagination and titles are the same component and helper.
  'releases, numbered page': /^\/releases\/\d+\/$/,
  language: /^\/[a-z]{2}\/$/,
  'language, numbered page': /^\/[a-z]{2}\/\d+\/$/,
  archive: /^\/archive\/$/,
  'archive year': /^\/archive\/\d{4}\/$/,
  'archive month': /^\/archive\/\d{4}\/\d{2}\/$/,
  topics: /^\/tags\/$/,
  topic: /^\/tags\/[^/]+\/$/,
  'media kits': /^\/media-kits\/$/,
  'media kit': /^\/media-kits\/[^/]+\/$/,
  'media library': /^\/media\/$/,
  'media section': /^\/media\/[a-z]+\/$/,
  'media section, numbered page': /^\/media\/[a-z]+\/\d+\/$/,
  coverage: /^\/coverage\/$/,
  events: /^\/events\/$/,
  event: /^\/events\/[^/]+\/$/,
  contacts: /^\/contacts\/$/,
  'custom page': /^\/pages\/[^/]+\/$/,
  search: /^\/search\/$/,
  'not found': /^\/404\.html$/,
  'redirect from a hosted-newsroom address': /^\/(media_kits|clippings|images|documents|movies|videos|sounds|live)\/[^/]+\/$/,
};

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

let archive: ArchiveCopy;
let pages: BuiltPage[];

beforeAll(async () => {
  pages = await loadPages(siteDir);
  archive = await archiveCopy(siteDir);
});

afterAll(async () => {
  await archive?.remove();
});

const hasJava = await run('java', ['-version']).then(
  () => true,
  () => false,
);

describe('valid HTML (W3C Nu HTML Checker)', () => {
  it.skipIf(!hasJava)(
    'finds no error on any page type, served or in the offline archive',
    async () => {
      const sample = Object.entries(PAGE_TYPES).map(([type, pattern]) => {
        const page = pages.filter((p) => pattern.test(p.path)).sort((a, b) => a.path.localeCompare(b.path))[0];
        expect(page, `no ${type} page in the demo build`).toBeDefined();
        return page!;
      });
      const served = sample.map((p) => p.file);
      const archived = [
        path.join(archive.dir, 'index.html'),
        ...served.map((file) => path.join(archive.siteDir, path.relative(siteDir, file))),
      ];
      for (const file of archived) expect(existsSync(file), file).toBe(true);

      const { stdout, stderr } = await run(
        'java',
        ['-Xss4m', '-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...served, ...archived],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      const report = JSON.parse(stdout || stderr) as { messages: VnuMessage[] };
      const errors = report.messages
        .filter((m) => m.type === 'error' || m.subType === 'fatal' || m.type === 'non-document-error')
        .map(
          (m) =>
            `${(m.url ?? '').replace(/^file:/, '')}:${m.lastLine ?? '?'}: ${m.message} ${m.extract ? `[${m.extract.trim().slice(0, 120)}]` : ''}`,
        );
      expect(errors).toEqual([]);
    },
    120_000,
  );

  it.skipIf(hasJava)('needs Java', () => {
    const message =
      'java is missing: the Nu HTML Checker test is skipped (.ci/run installs default-jre-headless; locally: apt-get install default-jre-headless)';
    if (process.env.CI) throw new Error(`${message}; CI must run it`);
    console.warn(message);
  });
});
