/**
 * One deploy of a built site into a bucket prefix: read the manifest, list
 * the bucket, plan (plan.ts), then make the changes live phase by phase
 * (uploads.ts: hashed assets, other assets, pages, feeds and indexes), delete
 * last, and write the new manifest after everything else. The listing is the
 * slow read (one request per 1,000 objects, one after another), so when the
 * change report can make the plan, its uploads start at once and the listing
 * is checked against the manifest meanwhile; a listing that shows drift stops
 * them and the listing decides what else to put. The first failure stops the
 * deploy: no later phase starts and the manifest is left as it was, so the
 * bucket keeps serving the old pages with every asset they name, and the next
 * deploy (whose listing no longer agrees with the manifest) completes the work.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import pLimit from 'p-limit';
import type { ChangeReport } from '../scripts/change-report.ts';
import type { Bucket, ListedObject } from './bucket.ts';
import { DeployError, firstLine } from './errors.ts';
import { MANIFEST_NAME, decodeManifest, encodeManifest, manifestOf } from './manifest.ts';
import { inPhases } from './phases.ts';
import { bucketDrift, holdBackRetired, listingReason, planFromListing, reportPlan, type Plan } from './plan.ts';
import { digestFile, siteFiles, type FileDigests } from './site-files.ts';
import { fileOf, keyOf, type Target } from './target.ts';
import { Uploads } from './uploads.ts';

export { DeployError, firstLine } from './errors.ts';

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
  const listing = bucket.list(target.prefix);
  listing.catch(() => undefined); // awaited below, after the reads that usually answer first
  const [files, manifestBytes] = await Promise.all([siteFiles(siteDir), bucket.get(manifestKey)]);
  if (files.size === 0) throw new DeployError(`${siteDir} holds no file; build the site first (npm run build)`);
  const manifest = manifestBytes && decodeManifest(manifestBytes);
  const pathOf = (file: string) => path.join(siteDir, ...file.split('/'));
  const fromReport = reportPlan({ files, manifest, report });
  const uploads = new Uploads({ target, bucket, pathOf, concurrency, log });
  // The change report's uploads go while the listing runs: any plan of this site puts them.
  let early: Promise<void> | undefined;
  if (typeof fromReport !== 'string' && !dryRun) {
    log(`deploy: ${files.size} files; uploading the change report's ${fromReport.upload.length} while the bucket is listed`);
    early = uploads.run(fromReport.upload);
    early.catch(() => undefined); // awaited below
  }
  const objects = await listedObjects(listing, early, uploads, target, manifestKey);

  const why = listingReason(manifest, fromReport, bucketDrift(objects, manifest, new Set(early ? (fromReport as Plan).upload : [])));
  let plan: Plan;
  if (why === undefined) plan = fromReport as Plan;
  else {
    // The bucket is not as the manifest says: what the report's uploads have put stands, the listing decides the rest.
    uploads.stop();
    await early;
    const digestLimit = pLimit(8);
    const digests = new Map<string, Promise<FileDigests>>();
    const digest = (file: string) => {
      if (!digests.has(file))
        digests.set(
          file,
          digestLimit(() => digestFile(pathOf(file))),
        );
      return digests.get(file)!;
    };
    plan = await planFromListing({ files, objects, manifest, report, digest, pathOf, uploaded: uploads.put }, why);
  }
  plan = holdBackRetired(plan, { manifest, objects });
  log(
    plan.source.kind === 'report'
      ? `deploy: ${files.size} files; compared through the change report (the bucket is as the last deploy left it)`
      : `deploy: ${files.size} files; compared with the bucket's ${objects.size} objects: ${plan.source.why}`,
  );
  // After a drift, the report's uploads done before it are no longer in the plan.
  const uploading = new Set([...plan.upload, ...uploads.put.keys()]).size;
  const summary = `${uploading} to upload, ${plan.remove.length} to delete, ${plan.retire.size} removed hashed files kept one deploy longer`;
  if (dryRun) {
    for (const { phase, files: list } of inPhases(plan.upload)) log(`deploy: would upload ${list.length} (${phase}): ${preview(list)}`);
    if (plan.remove.length) log(`deploy: would delete ${plan.remove.length}: ${preview(plan.remove)}`);
    log(`deploy: dry run: ${summary}; nothing written`);
    const changed = [...plan.upload, ...plan.remove];
    return { plan, changed, toPurge: changed, manifestWritten: false, purged: async () => undefined };
  }

  if (plan.source.kind === 'report') await early;
  else await uploads.run(plan.upload);
  if (plan.remove.length) {
    await bucket.delete(plan.remove.map((file) => keyOf(target, file))).catch((error: unknown) => {
      throw new DeployError(`deleting ${plan.remove.length} objects failed after every upload: ${firstLine(error)}`);
    });
    log(`deploy: deleted ${plan.remove.length}`);
  }
  const changed = [...[...uploads.put.keys()].sort(), ...plan.remove.filter((file) => !manifest?.retired[file])];
  const toPurge = purging ? [...new Set([...(manifest?.unpurged ?? []), ...changed])].sort() : [];
  const live = new Map([...plan.keep, ...uploads.put]);
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

const preview = (list: string[]): string => `${list.slice(0, 5).join(', ')}${list.length > 5 ? `, … (${list.length - 5} more)` : ''}`;

/**
 * The bucket's objects under the prefix by site path (the manifest left out). A listing that fails
 * while uploads run stops them; once they are answered, the failure of an upload (the more telling
 * one: the listing usually fails for the same cause) or else the listing's is thrown.
 */
async function listedObjects(
  listing: Promise<Map<string, ListedObject>>,
  early: Promise<void> | undefined,
  uploads: Uploads,
  target: Target,
  manifestKey: string,
): Promise<Map<string, ListedObject>> {
  let listed: Map<string, ListedObject>;
  try {
    // A failed upload is thrown at once, not after the listing.
    listed = await (early ? Promise.race([listing, early.then(() => listing)]) : listing);
  } catch (error) {
    uploads.stop();
    await early;
    throw error;
  }
  return new Map([...listed].filter(([key]) => key !== manifestKey).map(([key, object]) => [fileOf(target, key), object]));
}
