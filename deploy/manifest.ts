/**
 * What the last complete deploy put under the prefix, stored in the bucket
 * itself (the reserved key `<prefix>.pressroom-deploy.json.gz`), so any
 * machine deploying next knows it: every file with the size and ETag the
 * bucket reported for it and the SHA-256 the site's change report names it
 * by, the digest of the whole site it made live (the change report's `from`
 * and `to` are digests by the same rule), and the content-hashed files it
 * removed from the site but kept one deploy longer; and, while a CDN purge
 * asked for has not succeeded, the files whose URLs still need one.
 * Written last, after every upload and deletion of its deploy: a deploy that
 * stops midway leaves the previous manifest, which the listing then contradicts.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

export const MANIFEST_FORMAT = 'pressroom-deploy/1';
export const MANIFEST_NAME = '.pressroom-deploy.json.gz';
/**
 * Present while a deploy changes what the site serves: written before the first upload other
 * than a new hashed file, removed after the manifest. Found by the next deploy, it says the
 * bucket may not be as the manifest records it, so that deploy compares with the listing.
 */
export const UNDER_WAY_NAME = '.pressroom-deploy.under-way';

/** `[size, etag, sha256]`; sha256 is `''` for a file the deploy never read (kept from before). */
export type ManifestEntry = [number, string, string];

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /** Digest of the live site's paths and SHA-256s: `sha256("<sha256> <path>\n"…)` in path order. */
  site: string;
  files: Record<string, ManifestEntry>;
  /** Content-hashed files no longer in the site, still served for pages a CDN or browser may hold. */
  retired: Record<string, ManifestEntry>;
  /** Site paths changed by deploys whose purge has not succeeded yet (the next purge includes them). */
  unpurged?: string[];
}

const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The digest rule of the site's output tree (`scripts/output-tree.ts` treeDigest), over path → sha256. */
export function siteDigest(files: Iterable<[string, string]>): string {
  const hash = createHash('sha256');
  for (const [file, sha256] of [...files].sort(([a], [b]) => byPath(a, b))) hash.update(`${sha256} ${file}\n`);
  return hash.digest('hex');
}

export function manifestOf(files: Map<string, ManifestEntry>, retired: Map<string, ManifestEntry>, unpurged: string[] = []): Manifest {
  const site = siteDigest([...files].map(([file, [, , sha256]]) => [file, sha256]));
  return manifestWith(site, Object.fromEntries([...files].sort(([a], [b]) => byPath(a, b))), retired, unpurged);
}

/**
 * The manifest of a deploy that changed only what the change report says: `previous` with the
 * entries of `gone` dropped and those of `put` set, `site` the digest the report names for the
 * result. Same bytes as `manifestOf` of the whole site (one merge of the recorded entries, which
 * are in path order, with the few changed ones; nothing sorted or digested again), or undefined
 * when the recorded entries are not in path order (a manifest not written by `manifestOf`).
 */
export function patchedManifest(
  previous: Manifest,
  change: { site: string; put: ReadonlyMap<string, ManifestEntry>; gone: ReadonlySet<string> },
  retired: Map<string, ManifestEntry>,
  unpurged: string[] = [],
): Manifest | undefined {
  const put = [...change.put].sort(([a], [b]) => byPath(a, b));
  const files: Record<string, ManifestEntry> = {};
  let next = 0;
  let last: string | undefined;
  for (const [file, entry] of Object.entries(previous.files)) {
    if (last !== undefined && last >= file) return undefined;
    last = file;
    for (; next < put.length && put[next]![0] < file; next++) files[put[next]![0]] = put[next]![1];
    if (next < put.length && put[next]![0] === file) files[file] = put[next++]![1];
    else if (!change.gone.has(file)) files[file] = entry;
  }
  for (; next < put.length; next++) files[put[next]![0]] = put[next]![1];
  return manifestWith(change.site, files, retired, unpurged);
}

function manifestWith(
  site: string,
  files: Record<string, ManifestEntry>,
  retired: Map<string, ManifestEntry>,
  unpurged: string[],
): Manifest {
  return {
    format: MANIFEST_FORMAT,
    site,
    files,
    retired: Object.fromEntries([...retired].sort(([a], [b]) => byPath(a, b))),
    ...(unpurged.length ? { unpurged: [...new Set(unpurged)].sort() } : {}),
  };
}

/**
 * The retired files as the manifest records them: all a deploy that trusts the manifest needs to know
 * of the bucket besides the manifest itself (which retired files are there to delete or keep).
 */
export function recordedRetired(manifest: Manifest): Map<string, { size: number; etag: string }> {
  return new Map(Object.entries(manifest.retired).map(([file, [size, etag]]) => [file, { size, etag }]));
}

/** Same manifest, same bytes (gzip without a time stamp). */
export const encodeManifest = (manifest: Manifest): Buffer => gzipSync(JSON.stringify(manifest), { level: 1 });

/** The manifest in `bytes`, or undefined when they are not one this deploy can trust (then the listing decides). */
export function decodeManifest(bytes: Uint8Array): Manifest | undefined {
  try {
    const value = JSON.parse(gunzipSync(bytes).toString('utf8')) as Partial<Manifest>;
    if (value.format !== MANIFEST_FORMAT || typeof value.site !== 'string') return undefined;
    const entries = (record: unknown) =>
      record !== null &&
      typeof record === 'object' &&
      Object.values(record).every(
        (entry) => Array.isArray(entry) && typeof entry[0] === 'number' && typeof entry[1] === 'string' && typeof entry[2] === 'string',
      );
    if (!entries(value.files) || !entries(value.retired)) return undefined;
    if (value.unpurged !== undefined && !(Array.isArray(value.unpurged) && value.unpurged.every((file) => typeof file === 'string')))
      return undefined;
    return value as Manifest;
  } catch {
    return undefined;
  }
}
