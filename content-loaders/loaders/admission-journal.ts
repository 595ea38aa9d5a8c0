/**
 * What admitting one raw item did to its SourceContext, written down in order so that a later load
 * can do it again without admitting the item: the data policy's warnings, the non-public items it
 * counted, the embargo lifts it noted and the lines it logged. Admission (data-policy/admit.ts and
 * the sources' `screen`) reaches the build only through those four calls.
 */
import { DataIssues, type DataReport, type DataWarning, type HiddenReason } from '../data-policy/issues.ts';
import type { SourceContext } from '../sources/source.ts';

export type AdmissionEffect =
  { warn: DataWarning } | { hidden: { collection: string; reason: HiddenReason } } | { embargoLifts: number } | { log: string };

/**
 * The data-policy log as admission sees it: every call passed on to the build's own, those that
 * change it also written to the current journal. Counting received items and checking a
 * collection's share are the loader's, never admission's: one made here would not be replayed.
 */
class JournalingIssues extends DataIssues {
  readonly #target: DataIssues;
  readonly #journal: () => AdmissionEffect[];

  constructor(target: DataIssues, journal: () => AdmissionEffect[]) {
    super({ strict: target.strict });
    this.#target = target;
    this.#journal = journal;
  }

  override warn(warning: DataWarning): string {
    this.#journal().push({ warn: warning });
    return this.#target.warn(warning);
  }

  override hidden(collection: string, reason: HiddenReason): void {
    this.#journal().push({ hidden: { collection, reason } });
    this.#target.hidden(collection, reason);
  }

  override embargoLifts(at: number): void {
    this.#journal().push({ embargoLifts: at });
    this.#target.embargoLifts(at);
  }

  override received(): void {
    throw new Error('admission counted received items: the admission memo cannot replay that');
  }

  override checkShare(): void {
    throw new Error("admission checked a collection's share of repaired items: the admission memo cannot replay that");
  }

  override warnings(): readonly DataWarning[] {
    return this.#target.warnings();
  }

  override report(): DataReport {
    return this.#target.report();
  }

  override summary(): string {
    return this.#target.summary();
  }
}

export interface EffectRecorder {
  /** `context` with every effect written down as it is passed on. */
  readonly context: SourceContext;
  /** The effects written down since the last call (in order), and a new journal for the next item. */
  take(): AdmissionEffect[];
}

export function createEffectRecorder(context: SourceContext): EffectRecorder {
  let journal: AdmissionEffect[] = [];
  return {
    context: {
      now: context.now,
      issues: new JournalingIssues(context.issues, () => journal),
      log: (line) => {
        journal.push({ log: line });
        context.log(line);
      },
    },
    take() {
      const taken = journal;
      journal = [];
      return taken;
    },
  };
}

/** Does to `context` what admission did when the effects were written down; in strict mode a warning throws as it did then. */
export function replayEffects(effects: readonly AdmissionEffect[], context: SourceContext): void {
  for (const effect of effects) {
    if ('warn' in effect) context.issues.warn(effect.warn);
    else if ('hidden' in effect) context.issues.hidden(effect.hidden.collection, effect.hidden.reason);
    else if ('embargoLifts' in effect) context.issues.embargoLifts(effect.embargoLifts);
    else context.log(effect.log);
  }
}

/** The earliest instant (ms) an embargo noted among the effects lifts; Infinity when none was. */
export function earliestLift(effects: readonly AdmissionEffect[]): number {
  let earliest = Infinity;
  for (const effect of effects) if ('embargoLifts' in effect && effect.embargoLifts < earliest) earliest = effect.embargoLifts;
  return earliest;
}
