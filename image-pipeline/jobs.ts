/**
 * Rendition jobs: the unit of image work a queue hands to workers (scale-out).
 * One job per original with every rendition it declares (a job per rendition
 * would download the original once per rendition). A job carries the
 * original's URL, its declared sizes and the settings that name the outputs,
 * never bytes or secrets; its id is a digest of all of that, so the same job
 * enqueued twice is one job.
 *
 * A worker runs a job with the very code a build runs (`sources.ts`,
 * `renditions.ts`): the original fetched under the same host policy and caps,
 * the same plan, the same output names, the same bytes. It makes only what
 * the shared store lacks and puts it there. An original refused for what it
 * is (format, pixels, broken, a 4xx, the host policy) is an outcome, not a
 * failure: the job completes, and the build refuses it in the same words when
 * it renders. Only failures another attempt may cure throw.
 */
import { ENCODER_VERSION } from './encode.ts';
import { RefusedError, asRefusal, type RefusalKind } from './errors.ts';
import { declaredOf, originalOf } from './media-input.ts';
import { hash16 } from './outputs.ts';
import { createPipelineCore } from './pipeline-core.ts';
import { createRenditions, type Plan } from './renditions.ts';
import { SharedStoreError } from './shared-store.ts';
import type { ImagePipelineOptions, MediaInput, PipelineStats, SharedRenditionStore } from './types.ts';

/** The encoder version this code names outputs with: a job planned with another is not this code's to run. */
export const RENDITION_JOB_ENCODER = ENCODER_VERSION;

export interface RenditionJob {
  /** The original. */
  url: string;
  /** Every declared rendition: name and size (0 where the API gave none). */
  declared: Array<{ name: string; width: number; height: number }>;
  /** Also AVIF. */
  avif: boolean;
  /** The encoder version the output names were made with: a worker of another version refuses the job. */
  encoder: string;
}

export type JobOutcome =
  { status: 'made'; outputs: number; encoded: number; stored: number } | { status: 'refused'; kind: RefusalKind; reason: string };

/** The job of one item's `sizes`, or undefined when it has no original a worker may fetch (none, or a `file:` URL). */
export function renditionJobOf(sizes: MediaInput['sizes'], avif: boolean): RenditionJob | undefined {
  const url = originalOf(sizes);
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  const declared = declaredOf(sizes).map(({ name, width, height }) => ({ name, width, height }));
  return declared.length > 0 ? { url, declared, avif, encoder: ENCODER_VERSION } : undefined;
}

/** The job's id: a digest of what it is (a BullMQ job id must not be a plain integer: it starts with a letter). */
export function renditionJobId(job: RenditionJob): string {
  return `r${hash16(job.encoder, job.avif, job.url, JSON.stringify(job.declared.map((d) => [d.name, d.width, d.height])))}`;
}

/** Whether `value` has the shape of a job (what a queue hands over is only JSON). */
export function isRenditionJob(value: unknown): value is RenditionJob {
  const job = value as RenditionJob;
  return (
    typeof job === 'object' &&
    job !== null &&
    typeof job.url === 'string' &&
    typeof job.avif === 'boolean' &&
    typeof job.encoder === 'string' &&
    Array.isArray(job.declared) &&
    job.declared.every((d) => typeof d?.name === 'string' && Number.isInteger(d.width) && Number.isInteger(d.height))
  );
}

export type RenditionWorkerOptions = Omit<ImagePipelineOptions, 'sharedStore' | 'publicPath' | 'localOriginals' | 'avif'> & {
  sharedStore: SharedRenditionStore;
};

export interface RenditionWorker {
  run(job: RenditionJob): Promise<JobOutcome>;
  stats(): PipelineStats;
}

/** Runs rendition jobs in this process: the worker command's engine. */
export function createRenditionWorker(options: RenditionWorkerOptions): RenditionWorker {
  const { settings, store, stats, cpu, sources, outputs } = createPipelineCore(options);
  const shared = options.sharedStore;
  const common = { store, stats, outputs, cpu, maxPixels: settings.maxPixels, maxRawBytes: settings.maxRawBytes };
  const renditions = { avif: createRenditions({ ...common, avif: true }), plain: createRenditions({ ...common, avif: false }) };

  async function run(job: RenditionJob): Promise<JobOutcome> {
    if (job.encoder !== ENCODER_VERSION)
      throw new Error(
        `the job was planned with encoder ${job.encoder} and this worker runs ${ENCODER_VERSION}: run the build's version of the project`,
      );
    let src;
    try {
      src = await sources.source(job.url, 'image');
    } catch (error) {
      const refusal = asRefusal(error);
      if (refusal.retryable) throw refusal;
      return { status: 'refused', kind: refusal.kind, reason: refusal.message };
    }
    const maker = job.avif ? renditions.avif : renditions.plain;
    const plan = maker.plan(src, job.declared);
    const names = plan.renditions.flatMap((r) => r.outputs.map((o) => o.name));
    // The store first: what another worker or build made is neither encoded nor uploaded again.
    const stored = await Promise.all(names.map((name) => shared.has(name)));
    const missing: Plan = {
      base: plan.base,
      renditions: plan.renditions
        .map((r) => ({ ...r, outputs: r.outputs.filter((o) => !stored[names.indexOf(o.name)]) }))
        .filter((r) => r.outputs.length > 0),
    };
    const puts = missing.renditions.flatMap((r) => r.outputs.map((o) => o.name));
    // Counted per job: `stats` is shared by the jobs this worker runs at once.
    const inCache = await Promise.all(puts.map((name) => store.exists(store.outPath(name))));
    try {
      await maker.realise(src, missing);
    } catch (error) {
      if (error instanceof SharedStoreError) throw error;
      const refusal = error instanceof RefusedError ? error : asRefusal(error);
      await sources.markBroken(src, 'image', refusal).catch(() => undefined);
      return { status: 'refused', kind: refusal.kind, reason: refusal.message };
    }
    await Promise.all(puts.map((name) => shared.put(name, store.outPath(name))));
    return { status: 'made', outputs: names.length, encoded: inCache.filter((cached) => !cached).length, stored: puts.length };
  }

  return { run, stats: () => ({ ...stats }) };
}
