/**
 * The fingerprint of a built site, kept beside it as `<out>.fingerprint.json`
 * (never inside it): everything that decided its bytes, as the build that
 * rendered it saw them, and the site's own files. A later build whose inputs
 * all match, with the site still as recorded, has nothing to render
 * (scripts/no-change.ts). Holds no secret: no API key, no clock time but when
 * the site was rendered.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import type { OriginalOutcome } from '@pressroom-static/image-pipeline';
import { BUILD_RECORD_FILE } from '../src/lib/build-day.ts';
import type { CodeInputs } from './build-inputs.ts';
import type { StoredTree } from './output-tree.ts';
import { writeJsonAtomically } from './json-beside.ts';

export const FINGERPRINT_FORMAT = 'pressroom-fingerprint/1';

export interface Fingerprint {
  format: typeof FINGERPRINT_FORMAT;
  /** When the site was rendered (ISO): "nothing changed since …". */
  builtAt: string;
  code: CodeInputs;
  /** The PRESSROOM_* values that decide the output (scripts/build-inputs.ts), by name. */
  configuration: Record<string, string | null>;
  /** The build day the pages used (src/lib/build-day.ts); null when no page used one. */
  buildDay: { day: string; timeZone: string } | null;
  /** When the earliest embargoed item the API sent becomes public (ISO), if any. */
  nextEmbargoLift: string | null;
  /** Every API answer the loaders used: endpoint → SHA-256 of the body. */
  api: Record<string, string>;
  /** Every media original the image pipeline asked for, by URL, and what it came to. */
  media: OriginalOutcome[];
  /** The site's files: path → [SHA-256, size, mtime]. */
  output: StoredTree;
}

export const fingerprintPath = (out: string): string => `${out}.fingerprint.json`;

/** The fingerprint beside `out`, or why there is none usable. */
export async function readFingerprint(out: string): Promise<Fingerprint | { missing: string }> {
  let text: string;
  try {
    text = await readFile(fingerprintPath(out), 'utf8');
  } catch {
    return { missing: `no fingerprint beside ${out} (${fingerprintPath(out)})` };
  }
  try {
    const parsed = JSON.parse(text) as Partial<Fingerprint>;
    if (parsed.format !== FINGERPRINT_FORMAT) return { missing: `${fingerprintPath(out)} is not a ${FINGERPRINT_FORMAT} file` };
    if (typeof parsed.builtAt !== 'string') return { missing: `${fingerprintPath(out)} has no builtAt` };
    for (const field of ['code', 'configuration', 'api', 'media', 'output'] as const) {
      if (!parsed[field] || typeof parsed[field] !== 'object') return { missing: `${fingerprintPath(out)} has no usable ${field}` };
    }
    return parsed as Fingerprint;
  } catch (error) {
    return { missing: `${fingerprintPath(out)} is unreadable (${(error as Error).message.split('\n')[0]})` };
  }
}

export async function writeFingerprint(out: string, fingerprint: Fingerprint): Promise<void> {
  await writeJsonAtomically(fingerprintPath(out), fingerprint);
}

/** Before a new site is swapped in: the old fingerprint must never stand beside it. */
export async function removeFingerprint(out: string): Promise<void> {
  await rm(fingerprintPath(out), { force: true });
}

/**
 * Notes what the image pipeline's originals came to, at the end of page generation (the pipeline
 * is let go when the build is done). Add `integration` to the build's integrations.
 */
export function originalsRecorder(): { integration: AstroIntegration; originals(): OriginalOutcome[] | undefined } {
  let originals: OriginalOutcome[] | undefined;
  return {
    integration: {
      name: 'pressroom-static:fingerprint-originals',
      hooks: {
        'astro:build:generated': async () => {
          // Loaded here, not up front: the check that skips a build never needs the pipeline (or sharp).
          const { currentImagePipeline } = await import('../src/lib/image-pipeline.ts');
          const pipeline = await currentImagePipeline()?.catch(() => undefined);
          originals = pipeline ? await pipeline.originals() : [];
        },
      },
    },
    originals: () => originals,
  };
}

/**
 * The media originals the fingerprint of a partial build or warm change lists: its pipeline saw only
 * what the rendered routes asked for, while the kept pages still use the originals the previous
 * fingerprint lists, so the earlier outcomes stay and this build's replace them. (An original no
 * route uses any more stays listed until a full build: the no-change check then revalidates one
 * original more.)
 */
export function carriedOriginals(earlier: readonly OriginalOutcome[], now: readonly OriginalOutcome[] | undefined): OriginalOutcome[] {
  const byKey = new Map<string, OriginalOutcome>();
  for (const outcome of [...earlier, ...(now ?? [])]) byKey.set(`${outcome.as} ${outcome.url}`, outcome);
  return [...byKey.values()];
}

/** The build record the pages wrote (`<site>/.pressroom-build.json`), or null when none used a build day. */
export async function builtDay(site: string): Promise<Fingerprint['buildDay']> {
  try {
    const record = JSON.parse(await readFile(path.join(site, BUILD_RECORD_FILE), 'utf8')) as { day?: unknown; timeZone?: unknown };
    return typeof record.day === 'string' && typeof record.timeZone === 'string' ? { day: record.day, timeZone: record.timeZone } : null;
  } catch {
    return null;
  }
}

/** Why a finished build cannot vouch for its output (the next build must render again), if so. */
export function unsettled(originals: readonly OriginalOutcome[] | undefined): string | undefined {
  if (originals === undefined) return 'the build did not report its media originals';
  const failed = originals.filter((o) => 'refused' in o && o.retryable);
  if (failed.length === 0) return undefined;
  return `${failed.length} media original${failed.length === 1 ? '' : 's'} could not be downloaded (first: ${failed[0]!.url}), so pages show placeholders`;
}
