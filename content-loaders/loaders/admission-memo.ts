/**
 * The admission memo: for a process that loads the same press room again and again (a warm
 * renderer syncing Astro's content layer on each upstream change), what each raw item came to the
 * last time, so an item that did not change is not admitted, mapped and sanitised again, its entry
 * not digested and its body not stored again. At 46,000 entries that work is most of a sync in which
 * every answer is a 304.
 *
 * An outcome is kept by collection and by a digest of the endpoint and the raw item as received;
 * it is the entry exactly as stored (or that the item was not published) with every effect
 * admission had on the data-policy log, which a reuse replays, so the log, the data report and
 * strict mode read as if the item had been admitted. It holds while nothing else it depends on
 * moves: the options that shape entries (`rawHtml`, `bodyDir`), the item's place in its list for
 * sources whose entries record it, the build clock (admission reads it only to judge embargoes: from
 * the clock it was made at until the earliest lift its admission noted, the item reads the same),
 * and (with `bodyDir`) the body file it points to. Each collection keeps the items of its last
 * complete load only, so the memo holds one load's outcomes. A list page answered exactly as before
 * (the same request, the same SHA-256 of its bytes: `RawItems.answer`) keeps its items' keys, so
 * its items are not serialised and hashed again.
 */
import { hash } from 'node:crypto';
import type { StoredBody } from '../html/body-files.ts';
import type { LoaderRuntime } from '../runtime.ts';
import type { SourceContext } from '../sources/source.ts';
import { createEffectRecorder, earliestLift, replayEffects, type AdmissionEffect } from './admission-journal.ts';

/** An entry as the loader hands it to the store: mapped, sanitised, its body kept out, with its digest. */
export interface MemoEntry {
  id: string;
  data: Record<string, unknown>;
  digest: string;
}

/** What admitting one raw item came to. */
interface Outcome {
  /** The build clock it was admitted at: it holds from then until `liftsAt`. */
  now: number;
  /** The earliest instant an embargo it met lifts (Infinity: none): from then on it may read otherwise. */
  liftsAt: number;
  effects: readonly AdmissionEffect[];
  /** null: not published (not public, or skipped). */
  entry: MemoEntry | null;
  /** The index its entry was made with, for a source whose entries record their place in the list. */
  index: number | undefined;
}

interface CollectionOutcomes {
  /** The runtime options the entries were shaped by (see `shapeOf`). */
  shape: string;
  outcomes: Map<string, Outcome>;
  /** The keys of the items of each whole answer, by endpoint and answer (`RawItems.answer`). */
  keysByAnswer: Map<string, readonly string[]>;
}

export interface AdmissionMemo {
  /** Raw items whose kept outcome was used, over the memo's life. */
  readonly hits: number;
  /** Raw items admitted because no kept outcome held for them, over the memo's life. */
  readonly misses: number;
  /** Outcomes kept now (each collection's last complete load). */
  readonly size: number;
  /** Batches whose items' keys were taken from the same answer's in the last load (not hashed again), over the memo's life. */
  readonly answersRecognised: number;
  /** Used by the loaders: one load of `collection` with this runtime. */
  forLoad(collection: string, runtime: LoaderRuntime, entriesRecordIndex: boolean): MemoisedLoad;
}

/** One collection's load through the memo. */
export interface MemoisedLoad {
  /**
   * A batch's raw items, each with the outcome kept for it when that still holds at this runtime's
   * clock (and its body file is there). `answer`: what identifies the answer the items are whole
   * (`RawItems.answer`), so that the same answer's keys are taken as they were.
   */
  recall(endpoint: string, items: readonly unknown[], answer?: string): Promise<MemoisedItem[]>;
  /** The load completed: the items it saw are what the memo keeps for this collection from now on. */
  commit(): void;
}

/** What admitting one item on a miss reports to, for the next load. */
export interface Learning {
  /** The context to admit the item with: every effect is passed on and written down. */
  readonly context: SourceContext;
  /** Keeps the outcome (null: not published) with the effects written down. */
  remember(entry: MemoEntry | null): void;
}

const NO_EFFECTS: readonly AdmissionEffect[] = Object.freeze([]);

/** The runtime options an entry's value depends on: a memo made under others is not used. */
const shapeOf = (runtime: LoaderRuntime) => JSON.stringify([runtime.options.rawHtml, runtime.bodies?.dir ?? null]);

/** The same raw item from the same endpoint, to the byte of its JSON. */
const keyOf = (endpoint: string, raw: unknown) => hash('sha1', `${endpoint}\u0000${JSON.stringify(raw) ?? 'undefined'}`, 'base64');

const bodyFileOf = (entry: MemoEntry | null): string | undefined => {
  const body = entry?.data.body as StoredBody | undefined;
  return body && typeof body === 'object' && 'file' in body ? body.file : undefined;
};

/** A raw item of a load, with the outcome kept for it if one holds. */
export interface MemoisedItem {
  /**
   * The kept entry (null: not published) when the outcome holds for an item at `index`, its effects
   * replayed on `context` (strict mode throws as admission did) and kept for the next load;
   * undefined when the item must be admitted.
   */
  reuse(index: number, context: SourceContext): MemoEntry | null | undefined;
  /** The item admitted anew (at `index`) through `context`, written down for the next load. */
  learn(index: number, context: SourceContext): Learning;
}

interface LoadState {
  readonly entriesRecordIndex: boolean;
  keep(key: string, outcome: Outcome): void;
  count(reused: boolean): void;
}

class KeyedItem implements MemoisedItem {
  readonly #load: LoadState;
  readonly #key: string;
  #outcome: Outcome | undefined;

  constructor(load: LoadState, key: string, outcome: Outcome | undefined) {
    this.#load = load;
    this.#key = key;
    this.#outcome = outcome;
  }

  /** The kept outcome no longer holds: its body file is gone. */
  forget(): void {
    this.#outcome = undefined;
  }

  bodyFile(): string | undefined {
    return bodyFileOf(this.#outcome?.entry ?? null);
  }

  reuse(index: number, context: SourceContext): MemoEntry | null | undefined {
    const outcome = this.#outcome;
    if (!outcome || (outcome.entry && outcome.index !== undefined && outcome.index !== index)) return undefined;
    this.#load.count(true);
    replayEffects(outcome.effects, context);
    this.#load.keep(this.#key, outcome);
    return outcome.entry;
  }

  learn(index: number, context: SourceContext): Learning {
    this.#load.count(false);
    const recorder = createEffectRecorder(context);
    const load = this.#load;
    const key = this.#key;
    return {
      context: recorder.context,
      remember(entry) {
        const effects = recorder.take();
        load.keep(key, {
          now: context.now,
          liftsAt: earliestLift(effects),
          effects: effects.length === 0 ? NO_EFFECTS : effects,
          entry,
          index: load.entriesRecordIndex ? index : undefined,
        });
      },
    };
  }
}

export function createAdmissionMemo(): AdmissionMemo {
  const collections = new Map<string, CollectionOutcomes>();
  let hits = 0;
  let misses = 0;
  let answersRecognised = 0;
  return {
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    get answersRecognised() {
      return answersRecognised;
    },
    get size() {
      let size = 0;
      for (const kept of collections.values()) size += kept.outcomes.size;
      return size;
    },
    forLoad(collection, runtime, entriesRecordIndex) {
      const shape = shapeOf(runtime);
      const earlier = collections.get(collection);
      const previous = earlier?.shape === shape ? earlier.outcomes : new Map<string, Outcome>();
      const previousKeys = earlier?.shape === shape ? earlier.keysByAnswer : new Map<string, readonly string[]>();
      const next = new Map<string, Outcome>();
      const nextKeys = new Map<string, readonly string[]>();
      const holds = (outcome: Outcome) => outcome.now <= runtime.now && runtime.now < outcome.liftsAt;
      const state: LoadState = {
        entriesRecordIndex,
        keep: (key, outcome) => void next.set(key, outcome),
        count(reused) {
          if (reused) hits++;
          else misses++;
        },
      };
      return {
        async recall(endpoint, items, answer) {
          const answerKey = answer === undefined ? undefined : `${endpoint}\u0000${answer}`;
          const known = answerKey === undefined ? undefined : previousKeys.get(answerKey);
          const keys = known?.length === items.length ? known : items.map((raw) => keyOf(endpoint, raw));
          if (keys === known) answersRecognised++;
          if (answerKey !== undefined) nextKeys.set(answerKey, keys);
          const memoised = items.map((_, n) => {
            const key = keys[n]!;
            const outcome = previous.get(key);
            return new KeyedItem(state, key, outcome && holds(outcome) ? outcome : undefined);
          });
          // A body file found is noted as used even if its entry is not stored in the end (a
          // duplicate id): it is then only kept from pruning a little longer.
          const bodies = runtime.bodies;
          if (bodies)
            await Promise.all(
              memoised.map(async (item) => {
                const file = item.bodyFile();
                if (file !== undefined && !(await bodies.reuse(file))) item.forget();
              }),
            );
          return memoised;
        },
        commit() {
          collections.set(collection, { shape, outcomes: next, keysByAnswer: nextKeys });
        },
      };
    },
  };
}
