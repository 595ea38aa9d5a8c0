/**
 * A snapshot folder: `manifest.json` plus `files/<sha256>`, one file per
 * distinct body. The manifest maps each recorded URL (never with a secret) to
 * its status, content type, ETag, size and SHA-256.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'astro/zod';

export const SNAPSHOT_FORMAT = 'pressroom-snapshot/1';

export const manifestEntry = z.object({
  url: z.string(),
  status: z.number().int(),
  contentType: z.string().nullable(),
  etag: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestEntry = z.infer<typeof manifestEntry>;

export const manifest = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  /** `demo`: recorded from the bundled demo press room (a build from it is marked as a demo). */
  api: z.object({ baseUrl: z.string(), pressroomId: z.string(), demo: z.boolean().optional() }),
  recordedAt: z.string(),
  entries: z.array(manifestEntry),
});
export type Manifest = z.infer<typeof manifest>;

export const MANIFEST_FILE = 'manifest.json';
export const filePath = (dir: string, sha256: string) => path.join(dir, 'files', sha256);
export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Names of query parameters that may carry a secret; never recorded. */
const SECRET_PARAM = /(^|[_-])(key|api_?key|token|secret|password|signature|sig|auth)$/i;

/** The URL as recorded: secrets dropped from the query, parameters sorted. */
export function recordedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  const params = [...parsed.searchParams].filter(([name]) => !SECRET_PARAM.test(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  parsed.search = new URLSearchParams(params).toString();
  parsed.hash = '';
  return parsed.toString();
}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path.join(dir, MANIFEST_FILE)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      cause: error,
    });
  }
  const parsed = manifest.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path.join(dir, MANIFEST_FILE)} is not a ${SNAPSHOT_FORMAT} manifest: '${issue.path.join('.')}' ${issue.message}`);
  }
  return parsed.data;
}

/** Throws one line unless `dir` holds a readable snapshot manifest (checked before a build starts). */
export async function assertSnapshotFolder(dir: string, what = 'the snapshot folder'): Promise<void> {
  try {
    await readManifest(path.resolve(dir));
  } catch (error) {
    throw new Error(`${what} is not a readable snapshot: ${(error as Error).message}`, { cause: error });
  }
}
