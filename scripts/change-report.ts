/**
 * The change report of a build, for CDN purges: which files of the site were
 * added, changed and removed against the previous output (by content hash),
 * written beside the output as `<out>.changes.json` by every build that exits 0
 * (one that only confirmed the output reports nothing), and handed to
 * `PRESSROOM_DEPLOY_COMMAND` as `PRESSROOM_CHANGES`.
 *
 * Every entry names its file and the URLs a CDN caches it under: a page
 * `foo/index.html` is served as `/foo/` (what every link uses) and as
 * `/foo/index.html`; any other file under its own path. `purge` lists every
 * such URL, absolute on PRESSROOM_SITE_URL, once: purge exactly those.
 * `from` and `to` are digests of the whole site before and after (output-tree.ts
 * treeDigest): a deploy uses the report in place of a full comparison only when
 * the bucket holds the site `from` names (deploy/manifest.ts).
 * No clock time in it: the same change gives the same bytes.
 */
import { treeDigest, type Tree } from './output-tree.ts';
import { byPath } from '../src/lib/site-files.ts';
import { writeJsonAtomically } from './json-beside.ts';

export const CHANGES_FORMAT = 'pressroom-changes/1';

export interface ChangedFile {
  /** Path in the site folder, `/`-separated. */
  path: string;
  /** Site URLs (root-relative, percent-encoded) the file is served under. */
  urls: string[];
  /** Content hash now (added, changed). */
  sha256?: string;
  /** Content hash before (changed, removed). */
  previous?: string;
}

export interface ChangeReport {
  format: typeof CHANGES_FORMAT;
  /** PRESSROOM_SITE_URL: the origin `purge` is absolute on. */
  site: string;
  /** false when there was no previous output to compare with: everything is added. */
  previous: boolean;
  /** Digest of the previous site's paths and contents (of no file at all when there was none). */
  from: string;
  /** Digest of the site's paths and contents now. */
  to: string;
  counts: { added: number; changed: number; removed: number };
  added: ChangedFile[];
  changed: ChangedFile[];
  removed: ChangedFile[];
  /** Every URL of every added, changed or removed file, absolute, sorted, each once. */
  purge: string[];
}

export const changeReportPath = (out: string): string => `${out}.changes.json`;

/** The URLs a CDN serves a site file under: `a/b/index.html` → `/a/b/`, `/a/b/index.html`. */
export function urlsOfFile(file: string): string[] {
  const encoded = `/${file.split('/').map(encodeURIComponent).join('/')}`;
  if (file === 'index.html' || file.endsWith('/index.html')) return [encoded.slice(0, -'index.html'.length), encoded];
  return [encoded];
}

/** What changed from `previous` (undefined: no previous output) to `next`, in path order. */
export function changeReport(previous: Tree | undefined, next: Tree, site: string): ChangeReport {
  const before = previous ?? new Map();
  const added: ChangedFile[] = [];
  const changed: ChangedFile[] = [];
  const removed: ChangedFile[] = [];
  for (const [file, now] of next) {
    const was = before.get(file);
    if (!was) added.push({ path: file, urls: urlsOfFile(file), sha256: now.sha256 });
    else if (was.sha256 !== now.sha256) changed.push({ path: file, urls: urlsOfFile(file), sha256: now.sha256, previous: was.sha256 });
  }
  for (const [file, was] of before) if (!next.has(file)) removed.push({ path: file, urls: urlsOfFile(file), previous: was.sha256 });
  const inOrder = (list: ChangedFile[]) => list.sort((a, b) => byPath(a.path, b.path));
  const origin = site.replace(/\/+$/, '');
  const purge = [...new Set([...added, ...changed, ...removed].flatMap((entry) => entry.urls.map((url) => `${origin}${url}`)))].sort(
    byPath,
  );
  return {
    format: CHANGES_FORMAT,
    site: origin,
    previous: previous !== undefined,
    from: treeDigest(before),
    to: treeDigest(next),
    counts: { added: added.length, changed: changed.length, removed: removed.length },
    added: inOrder(added),
    changed: inOrder(changed),
    removed: inOrder(removed),
    purge,
  };
}

/** Writes the report beside `out` (never inside it), atomically; returns its path. */
export async function writeChangeReport(out: string, report: ChangeReport): Promise<string> {
  const file = changeReportPath(out);
  await writeJsonAtomically(file, report, 2);
  return file;
}

/** `12 added, 3 changed, 1 removed (38 URLs to purge)`, or `nothing`. */
export function changeSummary(report: ChangeReport): string {
  const { added, changed, removed } = report.counts;
  if (added + changed + removed === 0) return 'no file changed';
  return `${added} added, ${changed} changed, ${removed} removed (${report.purge.length} URLs to purge)`;
}
