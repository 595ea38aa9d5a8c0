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
import {
  MANIFEST_NAME,
  UNDER_WAY_NAME,
  decodeManifest,
  encodeManifest,
  manifestOf,
  patchedManifest,
  recordedRetired,
  type Manifest,
  type ManifestEntry,
} from './manifest.ts';
import { inPhases } from './phases.ts';
import { bucketDrift, folderMismatch, holdBackRetired, listingReason, planFromListing, reportPlan, type Plan } from './plan.ts';
import { digestFile, firstPresent, siteFiles, type FileDigests } from './site-files.ts';
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
  /** Compare with the bucket's listing even when the change report can make the plan. */
  verify: boolean;
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
  verify,
  log,
}: DeployOptions): Promise<DeployResult> {
  const manifestKey = keyOf(target, MANIFEST_NAME);
  const underWayKey = keyOf(target, UNDER_WAY_NAME);
  const reportChanges = report !== undefined && report.added.length + report.changed.length + report.removed.length > 0;
  // A deploy with nothing to upload is a read-only check of the bucket: it lists it, as --verify does.
  let listing = verify || !reportChanges ? bucket.list(target.prefix) : undefined;
  listing?.catch(() => undefined); // awaited below, after the reads that usually answer first
  const markerRead = !listing;
  const [manifestBytes, underWayBytes] = await Promise.all([bucket.get(manifestKey), listing ? undefined : bucket.get(underWayKey)]);
  const manifest = manifestBytes && decodeManifest(manifestBytes);
  const pathOf = (file: string) => path.join(siteDir, ...file.split('/'));
  const fromReport = reportPlan({ manifest, report });
  let unfinished = underWayBytes !== undefined;
  let markedUnderWay: Promise<void> | undefined;
  const beforeLive = () =>
    (markedUnderWay ??= bucket
      .put({
        key: underWayKey,
        body: UNDER_WAY_BODY,
        contentType: 'application/json; charset=utf-8',
        cacheControl: 'no-store',
        contentMd5: createHash('md5').update(UNDER_WAY_BODY).digest('base64'),
      })
      .then(
        () => undefined,
        (error: unknown) => {
          throw new DeployError(`marking the deploy as under way failed before any page changed: ${firstLine(error)}`);
        },
      ));
  const uploads = new Uploads({ target, bucket, pathOf, concurrency, log, beforeLive });

  // The change report's uploads go at once: any plan of this site puts them. Whether the folder holds the
  // files the report says, and (when listed) whether the bucket is as the manifest records, is checked meanwhile.
  let early: Promise<void> | undefined;
  if (typeof fromReport !== 'string' && !unfinished && !dryRun && fromReport.upload.length > 0) {
    if (listing) log(`deploy: uploading the change report's ${fromReport.upload.length} files while the bucket is listed`);
    early = uploads.run(fromReport.upload);
    early.catch(() => undefined); // awaited below
  }
  // The last deploy finished and made live the site the report starts from: the bucket is as its manifest
  // records, and the folder is taken to be as its report says (a build writes both under the lock this deploy
  // holds), so it is not walked: the report's uploads read its new files, and the files it says are gone must
  // be gone. A folder changed by hand besides is found by the next deploy that lists (docs/deploy.md).
  const trusted = !listing && typeof fromReport !== 'string' && !unfinished;
  const walk = async () => {
    // Read after the uploads started: the walk of the folder holds the event loop (siteFiles).
    const found = await besideUploads(siteFiles(siteDir), early, uploads);
    if (found.size > 0) return found;
    uploads.stop();
    await early;
    throw new DeployError(`${siteDir} holds no file; build the site first (npm run build)`);
  };
  let files = trusted ? undefined : await walk();
  let reportWhy: string | undefined;
  if (typeof fromReport === 'string') reportWhy = fromReport;
  else if (files) reportWhy = folderMismatch({ files, manifest, report });
  else {
    const stillThere = await besideUploads(firstPresent(report!.removed.map((entry) => pathOf(entry.path))), early, uploads);
    if (stillThere) reportWhy = 'the site folder holds other files than its change report says';
  }
  let objects: Map<string, ListedObject>;
  let why: string | undefined;
  if (trusted && reportWhy === undefined) {
    objects = recordedRetired(manifest!);
  } else {
    files ??= await walk();
    listing ??= bucket.list(target.prefix);
    const listed = await besideUploads(listing, early, uploads);
    // A marker this deploy wrote after finding none (its uploads may have begun) says nothing of the last deploy.
    unfinished ||= listed.has(underWayKey) && !(markerRead && markedUnderWay);
    objects = new Map(
      [...listed].filter(([key]) => key !== manifestKey && key !== underWayKey).map(([key, object]) => [fileOf(target, key), object]),
    );
    const uploading = new Set(early ? (fromReport as Plan).upload : []);
    why = listingReason(manifest, reportWhy ?? fromReport, bucketDrift(objects, manifest, uploading), unfinished);
  }
  let plan: Plan;
  if (why === undefined) {
    plan = fromReport as Plan;
    await early;
  } else {
    // The bucket or the folder is not as the report needs: what its uploads have put stands, the listing decides the rest.
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
    plan = await planFromListing({ files: files!, objects, manifest, report, digest, pathOf, uploaded: uploads.put }, why);
  }
  plan = holdBackRetired(plan, { manifest, objects });
  // Not walked: the site is the manifest's files, less those the report removed, with those it added.
  const fileCount = files?.size ?? Object.keys(manifest!.files).length - report!.removed.length + report!.added.length;
  log(
    plan.source.kind === 'report'
      ? `deploy: ${fileCount} files; compared through the change report (the bucket is as the last deploy left it)`
      : `deploy: ${fileCount} files; compared with the bucket's ${objects.size} objects: ${plan.source.why}`,
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

  await uploads.run(plan.upload.filter((file) => !uploads.put.has(file)));
  if (plan.remove.length) {
    await beforeLive();
    await bucket.delete(plan.remove.map((file) => keyOf(target, file))).catch((error: unknown) => {
      throw new DeployError(`deleting ${plan.remove.length} objects failed after every upload: ${firstLine(error)}`);
    });
    log(`deploy: deleted ${plan.remove.length}`);
  }
  const changed = [...[...uploads.put.keys()].sort(), ...plan.remove.filter((file) => !manifest?.retired[file])];
  const toPurge = purging ? [...new Set([...(manifest?.unpurged ?? []), ...changed])].sort() : [];
  const nextManifest = manifestAfter(plan, { manifest, report, put: uploads.put });
  const writeManifest = async (unpurged: string[]) => {
    const next = encodeManifest(nextManifest(unpurged));
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
  if (markedUnderWay || unfinished)
    await bucket.delete([underWayKey]).catch((error: unknown) => {
      throw new DeployError(
        `removing ${UNDER_WAY_NAME} failed after the deploy was complete (the next deploy lists the bucket): ${firstLine(error)}`,
      );
    });
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

/**
 * The manifest this deploy leaves, by the files it left to purge. Through the change report, the last
 * manifest patched where the report changed the site, when every upload holds the bytes the report
 * names (then the site is the one the report's `to` digest names); otherwise made whole from the plan.
 */
function manifestAfter(
  plan: Plan,
  { manifest, report, put }: { manifest: Manifest | undefined; report: ChangeReport | undefined; put: ReadonlyMap<string, ManifestEntry> },
): (unpurged: string[]) => Manifest {
  const whole = (unpurged: string[]) => manifestOf(new Map([...plan.keep, ...put]), plan.retire, unpurged);
  if (plan.source.kind !== 'report' || !manifest || !report) return whole;
  const reported = new Map([...report.added, ...report.changed].map((entry) => [entry.path, entry.sha256]));
  if (put.size !== reported.size || [...put].some(([file, [, , sha256]]) => reported.get(file) !== sha256)) return whole;
  const change = { site: report.to, put, gone: new Set(report.removed.map((entry) => entry.path)) };
  return (unpurged) => patchedManifest(manifest, change, plan.retire, unpurged) ?? whole(unpurged);
}

const UNDER_WAY_BODY = Buffer.from('{"deploy":"under way; until this object is gone the bucket may not be as the manifest records"}\n');

const preview = (list: string[]): string => `${list.slice(0, 5).join(', ')}${list.length > 5 ? `, … (${list.length - 5} more)` : ''}`;

/**
 * What `read` answers, while uploads may run. A read that fails stops them; once they are answered,
 * the failure of an upload (the more telling one: a listing usually fails for the same cause) or
 * else the read's is thrown. A failed upload is thrown at once, not after the read.
 */
async function besideUploads<T>(read: Promise<T>, early: Promise<void> | undefined, uploads: Uploads): Promise<T> {
  try {
    return await (early ? Promise.race([read, early.then(() => read)]) : read);
  } catch (error) {
    uploads.stop();
    await early;
    throw error;
  }
}
