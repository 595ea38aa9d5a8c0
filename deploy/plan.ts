/**
 * What a deploy must do to make the bucket serve the site: which files to
 * upload, which objects to delete, which removed content-hashed files to keep
 * one deploy longer. Two ways to know:
 *
 * - **From the change report**, when it describes the bucket's current state:
 *   the bucket is exactly as the last deploy's manifest says (its listing
 *   agrees key by key, size and ETag, files the report uploads aside), and
 *   that deploy made live the site the report starts from (`manifest.site` =
 *   `report.from`). Then the report's added and changed files are the uploads,
 *   its removed files the deletions, and no file of the site is read beyond
 *   those. The manifest alone tells whether the report can make the plan
 *   (`reportPlan`), so its uploads may start before the listing is in.
 * - **From the listing** otherwise (a first deploy, another machine deployed,
 *   a deploy stopped midway, builds between deploys, objects changed behind
 *   the deploy's back): every file is compared with its object, by the
 *   manifest's SHA-256 where the object is as the manifest recorded it, else
 *   by size and MD5 ETag (multipart ETags recomputed from the file).
 */
import type { ChangeReport } from '../scripts/change-report.ts';
import { isContentHashed } from './headers.ts';
import type { ListedObject } from './bucket.ts';
import type { Manifest, ManifestEntry } from './manifest.ts';
import { matchesMultipartEtag, partsOf, type FileDigests, type SiteFile } from './site-files.ts';

export interface PlanInput {
  /** The site's files by site path. */
  files: Map<string, SiteFile>;
  /** The bucket's objects under the prefix, by site path (the manifest's own key left out). */
  objects: Map<string, ListedObject>;
  manifest: Manifest | undefined;
  report: ChangeReport | undefined;
  /** Size, MD5 and SHA-256 of a site file (read once, remembered). */
  digest: (file: string) => Promise<FileDigests>;
  /** The absolute path of a site file (for multipart ETags). */
  pathOf: (file: string) => string;
  /** Files this deploy already put while the listing ran: whatever the listing says of them, they hold the site's bytes now. */
  uploaded?: ReadonlyMap<string, ManifestEntry>;
}

export interface Plan {
  /** How the plan was made, and why not from the change report. */
  source: { kind: 'report' } | { kind: 'listing'; why: string };
  /** Site files to upload. */
  upload: string[];
  /** Objects to delete (site paths): files gone from the site, and files retired one deploy ago. */
  remove: string[];
  /** Content-hashed files gone from the site, kept one deploy longer. */
  retire: Map<string, ManifestEntry>;
  /** Site files already in the bucket as they are, with what the manifest records for them. */
  keep: ReadonlyMap<string, ManifestEntry>;
  /** No object of the site was in the bucket before. */
  emptyBefore: boolean;
}

/** The plan once the listing is in: from the change report when it describes the bucket, else from the listing. */
export async function makePlan(input: PlanInput): Promise<Plan> {
  const report = reportPlan(input);
  const fromReport = typeof report === 'string' ? report : (folderMismatch(input) ?? report);
  const why = listingReason(input.manifest, fromReport, bucketDrift(input.objects, input.manifest), false);
  const plan = why === undefined ? (fromReport as Plan) : await planFromListing(input, why);
  return holdBackRetired(plan, input);
}

/**
 * The plan the change report makes when the bucket is as the manifest records it and the site
 * folder holds the files the report says, or why the report cannot stand for a comparison with the
 * bucket. The manifest and the report alone decide: whether the bucket is as recorded is for
 * `bucketDrift` to say (from the listing), whether the folder is as reported for `folderMismatch`.
 * A deploy may start this plan's uploads (in phase order) before either answers, since they are
 * files of the site any plan puts or harmless rewrites.
 */
export function reportPlan({ manifest, report }: Pick<PlanInput, 'manifest' | 'report'>): Plan | string {
  if (!manifest) return 'no deploy manifest in the bucket (a first deploy to this prefix, or the bucket was filled another way)';
  if (!report) return 'no change report beside the site';
  if (typeof report.from !== 'string' || typeof report.to !== 'string')
    return 'the change report is of an older build (no from/to digests)';
  if (report.from !== manifest.site) return 'the bucket holds another version of the site than the one the change report starts from';
  return planFromReport(manifest, report);
}

/** Why the site folder is not the one the change report describes (other file names), or undefined. */
export function folderMismatch({ files, manifest, report }: Pick<PlanInput, 'files' | 'manifest' | 'report'>): string | undefined {
  const gone = new Set(report!.removed.map((entry) => entry.path));
  const expected = new Set([
    ...Object.keys(manifest!.files).filter((file) => !gone.has(file)),
    ...report!.added.map((entry) => entry.path),
  ]);
  if (expected.size !== files.size || [...files.keys()].some((file) => !expected.has(file)))
    return 'the site folder holds other files than its change report says';
  return undefined;
}

/**
 * Why the listing decides rather than the change report, or undefined: the drift first (it is
 * what an operator must know), then a deploy that did not finish, then why the report cannot.
 */
export function listingReason(
  manifest: Manifest | undefined,
  fromReport: Plan | string,
  drift: string | undefined,
  unfinished: boolean,
): string | undefined {
  if (manifest && drift) return `the bucket changed since the last deploy: ${drift}`;
  if (manifest && unfinished) return 'the last deploy to this prefix did not finish';
  return typeof fromReport === 'string' ? fromReport : undefined;
}

/**
 * The first object that is not as the manifest recorded it, in words; undefined when all are (or
 * there is no manifest). Files in `uploading` are left out: the deploy puts them whatever they hold.
 */
export function bucketDrift(
  objects: Map<string, ListedObject>,
  manifest: Manifest | undefined,
  uploading: ReadonlySet<string> = new Set(),
): string | undefined {
  if (!manifest) return undefined;
  for (const [file, object] of objects) {
    if (uploading.has(file)) continue;
    const recorded = manifest.files[file] ?? manifest.retired[file];
    if (!recorded) return `${file} is not one the last deploy put`;
    if (recorded[0] !== object.size || recorded[1] !== object.etag) return `${file} is not as the last deploy put it`;
  }
  for (const file of [...Object.keys(manifest.files), ...Object.keys(manifest.retired)])
    if (!objects.has(file) && !uploading.has(file)) return `${file} is missing`;
  return undefined;
}

function planFromReport(manifest: Manifest, report: ChangeReport): Plan {
  const upload = [...report.added, ...report.changed].map((entry) => entry.path);
  const uploading = new Set(upload);
  const remove: string[] = [];
  const retire = new Map<string, ManifestEntry>();
  for (const { path: file } of report.removed) {
    const recorded = manifest.files[file]!;
    if (isContentHashed(file)) retire.set(file, recorded);
    else remove.push(file);
  }
  const gone = new Set(report.removed.map((entry) => entry.path));
  const keep = new KeptFiles(manifest.files, (file) => !gone.has(file) && !uploading.has(file));
  return { source: { kind: 'report' }, upload, remove, retire, keep, emptyBefore: false };
}

/**
 * The manifest's files a plan from the change report keeps, as a view: asking whether one is kept
 * reads the manifest, and the whole list (tens of thousands at scale) is made only if asked for.
 */
class KeptFiles implements ReadonlyMap<string, ManifestEntry> {
  private made: Map<string, ManifestEntry> | undefined;
  private readonly recorded: Record<string, ManifestEntry>;
  private readonly kept: (file: string) => boolean;
  constructor(recorded: Record<string, ManifestEntry>, kept: (file: string) => boolean) {
    this.recorded = recorded;
    this.kept = kept;
  }
  has(file: string): boolean {
    return Object.hasOwn(this.recorded, file) && this.kept(file);
  }
  get(file: string): ManifestEntry | undefined {
    return this.has(file) ? this.recorded[file] : undefined;
  }
  get size(): number {
    return this.all().size;
  }
  forEach(callback: (entry: ManifestEntry, file: string, map: ReadonlyMap<string, ManifestEntry>) => void): void {
    this.all().forEach((entry, file) => callback(entry, file, this));
  }
  entries() {
    return this.all().entries();
  }
  keys() {
    return this.all().keys();
  }
  values() {
    return this.all().values();
  }
  [Symbol.iterator]() {
    return this.all().entries();
  }
  private all(): Map<string, ManifestEntry> {
    return (this.made ??= new Map(Object.entries(this.recorded).filter(([file]) => this.kept(file))));
  }
}

export async function planFromListing({ files, objects, manifest, digest, pathOf, uploaded }: PlanInput, why: string): Promise<Plan> {
  const sameAsObject = async (file: string): Promise<ManifestEntry | undefined> => {
    const done = uploaded?.get(file);
    if (done) return done;
    const object = objects.get(file);
    if (!object) return undefined;
    const digests = await digest(file);
    const recorded = manifest?.files[file] ?? manifest?.retired[file];
    let same: boolean;
    if (recorded && recorded[0] === object.size && recorded[1] === object.etag && recorded[2]) same = recorded[2] === digests.sha256;
    else if (object.size !== digests.size) same = false;
    else if (object.etag === digests.md5) same = true;
    else if (partsOf(object.etag) !== undefined) same = await matchesMultipartEtag(pathOf(file), digests.size, object.etag);
    else same = false;
    return same ? [object.size, object.etag, digests.sha256] : undefined;
  };
  // Compared all at once (the digests are read as many at a time as `digest` allows), then taken in path order.
  const compared = await Promise.all([...files.keys()].map(async (file) => [file, await sameAsObject(file)] as const));
  const upload: string[] = [];
  const keep = new Map<string, ManifestEntry>();
  for (const [file, entry] of compared) {
    if (entry) keep.set(file, entry);
    else upload.push(file);
  }
  const remove: string[] = [];
  const retire = new Map<string, ManifestEntry>();
  for (const [file, object] of objects) {
    if (files.has(file)) continue;
    const wasRetired = manifest?.retired[file];
    if (!wasRetired && isContentHashed(file)) retire.set(file, [object.size, object.etag, manifest?.files[file]?.[2] ?? '']);
    else remove.push(file);
  }
  return { source: { kind: 'listing', why }, upload, remove, retire, keep, emptyBefore: objects.size === 0 };
}

/**
 * Files retired by the last deploy go with the next deploy that changes the site; a deploy
 * that changes nothing deletes nothing (it stays a read-only check), so they stay retired.
 */
export function holdBackRetired(plan: Plan, { manifest, objects }: Pick<PlanInput, 'manifest' | 'objects'>): Plan {
  const uploading = new Set(plan.upload);
  const inSite = (file: string) => plan.keep.has(file) || uploading.has(file);
  const retiredBefore = Object.entries(manifest?.retired ?? {}).filter(([file]) => objects.has(file) && !inSite(file));
  const wasRetired = new Set(retiredBefore.map(([file]) => file));
  const changesSite = plan.upload.length > 0 || plan.retire.size > 0 || plan.remove.some((file) => !wasRetired.has(file));
  if (changesSite) return { ...plan, remove: [...new Set([...plan.remove, ...wasRetired])].sort() };
  return {
    ...plan,
    remove: plan.remove.filter((file) => !wasRetired.has(file)),
    retire: new Map([...plan.retire, ...retiredBefore]),
  };
}
