/**
 * One deploy of a built site into a bucket prefix: list the bucket, read the
 * manifest, plan (plan.ts), then make the changes live phase by phase
 * (phases.ts: hashed assets, other assets, pages, feeds and indexes), delete
 * last, and write the new manifest after everything else. The first failure
 * stops it: no later phase starts and the manifest is left as it was, so the
 * bucket keeps serving the old pages with every asset they name, and the next
 * deploy (whose listing no longer agrees with the manifest) completes the work.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { ChangeReport } from '../scripts/change-report.ts';
import type { Bucket } from './bucket.ts';
import { cacheControlOf, contentTypeOf } from './headers.ts';
import { MANIFEST_NAME, decodeManifest, encodeManifest, manifestOf, type ManifestEntry } from './manifest.ts';
import { inPhases } from './phases.ts';
import { makePlan, type Plan } from './plan.ts';
import { digestFile, siteFiles, type FileDigests } from './site-files.ts';
import { fileOf, keyOf, type Target } from './target.ts';

export interface DeployOptions {
  siteDir: string;
  target: Target;
  bucket: Bucket;
  /** The site's change report, when there is one beside it. */
  report: ChangeReport | undefined;
  dryRun: boolean;
  /** A CDN purge follows: the changed files are recorded as unpurged until `purged()` is called. */
  purging: boolean;
  /** Uploads at once within a phase. */
  concurrency: number;
  log: (line: string) => void;
}

export interface DeployResult {
  plan: Plan;
  /** Site paths uploaded and deleted (retired files still serve the same bytes). */
  changed: string[];
  /** What a CDN must purge: the changed files, and those of earlier deploys whose purge failed. */
  toPurge: string[];
  manifestWritten: boolean;
  /** After a successful purge: the manifest no longer lists files to purge. */
  purged(): Promise<void>;
}

/** A step that failed, with what was already done: the deploy's one line names both. */
export class DeployError extends Error {
  override name = 'DeployError';
}

export async function deploySite({
  siteDir,
  target,
  bucket,
  report,
  dryRun,
  purging,
  concurrency,
  log,
}: DeployOptions): Promise<DeployResult> {
  const manifestKey = keyOf(target, MANIFEST_NAME);
  // The three reads at once: on a deploy with nothing to do they are all its time.
  const [files, listed, manifestBytes] = await Promise.all([siteFiles(siteDir), bucket.list(target.prefix), bucket.get(manifestKey)]);
  if (files.size === 0) throw new DeployError(`${siteDir} holds no file; build the site first (npm run build)`);
  const objects = new Map([...listed].filter(([key]) => key !== manifestKey).map(([key, object]) => [fileOf(target, key), object]));
  const manifest = manifestBytes && decodeManifest(manifestBytes);

  const digests = new Map<string, Promise<FileDigests>>();
  const pathOf = (file: string) => path.join(siteDir, ...file.split('/'));
  const digest = (file: string) => {
    if (!digests.has(file)) digests.set(file, digestFile(pathOf(file)));
    return digests.get(file)!;
  };
  const plan = await makePlan({ files, objects, manifest, report, digest, pathOf });
  log(
    plan.source.kind === 'report'
      ? `deploy: ${files.size} files; compared through the change report (the bucket is as the last deploy left it)`
      : `deploy: ${files.size} files; compared with the bucket's ${objects.size} objects: ${plan.source.why}`,
  );
  const phases = inPhases(plan.upload);
  const summary = `${plan.upload.length} to upload, ${plan.remove.length} to delete, ${plan.retire.size} removed hashed files kept one deploy longer`;
  if (dryRun) {
    for (const { phase, files: list } of phases) log(`deploy: would upload ${list.length} (${phase}): ${preview(list)}`);
    if (plan.remove.length) log(`deploy: would delete ${plan.remove.length}: ${preview(plan.remove)}`);
    log(`deploy: dry run: ${summary}; nothing written`);
    const changed = [...plan.upload, ...plan.remove];
    return { plan, changed, toPurge: changed, manifestWritten: false, purged: async () => undefined };
  }

  const put = new Map<string, ManifestEntry>();
  let done = 0;
  for (const { phase, files: list } of phases) {
    await uploadAll(list, concurrency, async (file) => {
      const body = await readFile(pathOf(file));
      const sha256 = createHash('sha256').update(body).digest('hex');
      const etag = await bucket
        .put({
          key: keyOf(target, file),
          body,
          contentType: contentTypeOf(file),
          cacheControl: cacheControlOf(file),
          contentMd5: createHash('md5').update(body).digest('base64'),
        })
        .catch((error: unknown) => {
          throw new DeployError(`uploading ${file} (${phase}) failed after ${done} of ${plan.upload.length} uploads: ${firstLine(error)}`);
        });
      put.set(file, [body.length, etag, sha256]);
      done++;
    });
    log(`deploy: uploaded ${list.length} (${phase})`);
  }
  if (plan.remove.length) {
    await bucket.delete(plan.remove.map((file) => keyOf(target, file))).catch((error: unknown) => {
      throw new DeployError(`deleting ${plan.remove.length} objects failed after every upload: ${firstLine(error)}`);
    });
    log(`deploy: deleted ${plan.remove.length}`);
  }
  const changed = [...plan.upload, ...plan.remove.filter((file) => !manifest?.retired[file])];
  const toPurge = purging ? [...new Set([...(manifest?.unpurged ?? []), ...changed])].sort() : [];
  const live = new Map([...plan.keep, ...put]);
  const writeManifest = async (unpurged: string[]) => {
    const next = encodeManifest(manifestOf(live, plan.retire, unpurged));
    if (manifestBytes && Buffer.from(manifestBytes).equals(next)) return false;
    await bucket
      .put({
        key: manifestKey,
        body: next,
        contentType: 'application/gzip',
        cacheControl: 'no-store',
        contentMd5: createHash('md5').update(next).digest('base64'),
      })
      .catch((error: unknown) => {
        throw new DeployError(`writing the deploy manifest failed after every upload and deletion: ${firstLine(error)}`);
      });
    return true;
  };
  // Without a purge asked for, the URLs left to purge are forgotten: whoever deploys purges their own way.
  const manifestWritten = await writeManifest(toPurge);
  log(`deploy: done: ${summary}`);
  return {
    plan,
    changed,
    toPurge,
    manifestWritten,
    purged: async () => {
      if (toPurge.length) await writeManifest([]);
    },
  };
}

/** Runs `task` on every file, `concurrency` at once; after the first failure no new one starts, and that failure is thrown. */
async function uploadAll(files: string[], concurrency: number, task: (file: string) => Promise<void>): Promise<void> {
  const limit = pLimit(concurrency);
  let failure: unknown;
  await Promise.all(
    files.map((file) =>
      limit(async () => {
        if (failure) return;
        await task(file).catch((error: unknown) => {
          failure ??= error;
        });
      }),
    ),
  );
  if (failure) throw failure;
}

const preview = (list: string[]): string => `${list.slice(0, 5).join(', ')}${list.length > 5 ? `, … (${list.length - 5} more)` : ''}`;

export const firstLine = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0]!;
