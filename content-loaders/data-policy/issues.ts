/**
 * What the upstream data policy did during one load: fields dropped or
 * replaced (unusable paths made safe) and items skipped — warnings, each one
 * line naming collection, item, field and value — and items kept out because
 * they are not public (counted, never printed with their content). Strict
 * mode turns the first warning into a failure; a collection where a large
 * share of items needed repair fails the load whatever the mode, because that
 * is an API change, not one bad value.
 */

/**
 * A field dropped (invalid or unsafe optional value), replaced (an unusable permalink becomes a safe
 * path), a whole item skipped, or an item (or a kit's media) kept out because a visibility signal in
 * it cannot be read.
 */
export type WarningKind = 'field-dropped' | 'field-replaced' | 'item-skipped' | 'item-hidden';

export interface DataWarning {
  kind: WarningKind;
  collection: string;
  /** The endpoint the item came from (path and query, never a secret). */
  endpoint: string;
  itemId: string;
  /** Dotted path of the field, e.g. `featured_images.0.sizes.original.url`; `(item)` for the whole item. */
  field: string;
  /** The value received, shortened for a log line. */
  value: string;
  /** Why, e.g. `expected an absolute http(s) URL`. */
  reason: string;
  /** What replaced it (`field-replaced`), or what was kept out (`item-hidden`). */
  replacement?: string;
}

/** Why an item is not public; `unreadable`: a visibility signal in it could not be read (it fails closed). */
export type HiddenReason = 'draft' | 'private' | 'embargoed' | 'hidden-category' | 'locked-media' | 'unreadable';

export interface CollectionTally {
  /** Items received from the API (before anything was filtered or skipped). */
  received: number;
  /** Items with at least one warning (skipped ones included). */
  repaired: number;
  fieldsDropped: number;
  itemsSkipped: number;
  fieldsReplaced: number;
  /** Non-public items kept out, by reason. */
  hidden: Partial<Record<HiddenReason, number>>;
}

/** The machine-readable report of one load (written beside the output by the build command). */
export interface DataReport {
  format: 'pressroom-data-report/1';
  strict: boolean;
  collections: Record<string, CollectionTally>;
  warnings: DataWarning[];
  /** The earliest instant an embargoed item becomes public: when a rebuild will publish more. */
  nextEmbargoLift: string | null;
}

/** Thrown when the data cannot be trusted (strict mode, or too much of one collection invalid). */
export class DataPolicyError extends Error {
  override name = 'DataPolicyError';
}

export interface DataIssuesOptions {
  /** Every warning fails the load (the `strict` option). */
  strict?: boolean;
  /** How the strict-mode error names that setting (default `the strict option`). */
  strictName?: string;
}

/** A collection fails when more than this share of its items needed repair… */
export const INVALID_SHARE_LIMIT = 0.5;
/** …and it has at least this many items (a few bad items in a tiny collection are not an API change). */
export const INVALID_SHARE_MIN_ITEMS = 10;

export function shown(value: unknown): string {
  if (value === undefined) return 'nothing (field missing)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function warningLine(w: DataWarning): string {
  const where = `${w.collection}: item ${w.itemId} from ${w.endpoint}`;
  switch (w.kind) {
    case 'field-dropped':
      return `${where}: dropped '${w.field}' (${w.reason}, got ${w.value}); the item is published without it`;
    case 'field-replaced':
      return `${where}: '${w.field}' ${w.value} cannot be used (${w.reason}); ${w.replacement}`;
    case 'item-skipped':
      return w.field === '(item)'
        ? `${where}: skipped (${w.reason}); the rest is published`
        : `${where}: skipped, '${w.field}' is required (${w.reason}, got ${w.value}); the rest is published`;
    case 'item-hidden':
      return `${where}: visibility field '${w.field}' cannot be read (${w.reason}, got ${w.value}); ${w.replacement ?? 'the item'} is kept out, the rest is published`;
  }
}

export class DataIssues {
  readonly strict: boolean;
  private readonly tallies = new Map<string, CollectionTally>();
  private readonly warningsList: DataWarning[] = [];
  private readonly repairedItems = new Set<string>();
  private nextLift: number | null = null;

  private readonly strictName: string;

  constructor({ strict = false, strictName = 'the strict option' }: DataIssuesOptions = {}) {
    this.strict = strict;
    this.strictName = strictName;
  }

  private tally(collection: string): CollectionTally {
    let t = this.tallies.get(collection);
    if (!t)
      this.tallies.set(collection, (t = { received: 0, repaired: 0, fieldsDropped: 0, itemsSkipped: 0, fieldsReplaced: 0, hidden: {} }));
    return t;
  }

  received(collection: string, count: number): void {
    this.tally(collection).received += count;
  }

  /** Records one warning and returns its log line; in strict mode it fails the load at once. */
  warn(warning: DataWarning): string {
    const t = this.tally(warning.collection);
    if (warning.kind === 'field-dropped') t.fieldsDropped++;
    else if (warning.kind === 'item-skipped') t.itemsSkipped++;
    else if (warning.kind === 'field-replaced') t.fieldsReplaced++;
    else t.hidden.unreadable = (t.hidden.unreadable ?? 0) + 1;
    const key = `${warning.collection}\u0000${warning.itemId}`;
    if (!this.repairedItems.has(key)) {
      this.repairedItems.add(key);
      t.repaired++;
    }
    this.warningsList.push(warning);
    const line = warningLine(warning);
    if (this.strict) throw new DataPolicyError(`${line}. ${this.strictName} is on, so this fails the build; the previous output is kept`);
    return line;
  }

  /** Counts a non-public item kept out (never its content). */
  hidden(collection: string, reason: HiddenReason): void {
    const h = this.tally(collection).hidden;
    h[reason] = (h[reason] ?? 0) + 1;
  }

  /** Remembers when an embargoed item lifts, so the report can say when to rebuild. */
  embargoLifts(at: number): void {
    if (this.nextLift === null || at < this.nextLift) this.nextLift = at;
  }

  /**
   * Fails when more than INVALID_SHARE_LIMIT of a collection's items needed repair: a real API
   * change (a renamed field, a new format) that would publish a broken site if accepted item by item.
   */
  checkShare(collection: string): void {
    const t = this.tally(collection);
    if (t.received >= INVALID_SHARE_MIN_ITEMS && t.repaired / t.received > INVALID_SHARE_LIMIT) {
      const example = this.warningsList.find((w) => w.collection === collection);
      throw new DataPolicyError(
        `${collection}: ${t.repaired} of ${t.received} items from the API needed repair (more than ${INVALID_SHARE_LIMIT * 100}%), so the API has probably changed shape` +
          `${example ? `, e.g. ${warningLine(example)}` : ''}. Nothing was published; update content-loaders/schemas or ask the API owner`,
      );
    }
  }

  warnings(): readonly DataWarning[] {
    return this.warningsList;
  }

  report(): DataReport {
    const collections = Object.fromEntries([...this.tallies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      format: 'pressroom-data-report/1',
      strict: this.strict,
      collections,
      warnings: [...this.warningsList],
      nextEmbargoLift: this.nextLift === null ? null : new Date(this.nextLift).toISOString(),
    };
  }

  /** One line for the build log: what was dropped, skipped, made safe and kept out, per collection. */
  summary(): string {
    const parts: string[] = [];
    let dropped = 0;
    let skipped = 0;
    let replaced = 0;
    let hidden = 0;
    for (const [name, t] of this.tallies) {
      const h = Object.values(t.hidden).reduce((n, x) => n + (x ?? 0), 0);
      dropped += t.fieldsDropped;
      skipped += t.itemsSkipped;
      replaced += t.fieldsReplaced;
      hidden += h;
      const bits = [
        t.fieldsDropped && `${t.fieldsDropped} dropped`,
        t.itemsSkipped && `${t.itemsSkipped} skipped`,
        t.fieldsReplaced && `${t.fieldsReplaced} replaced`,
        h && `${h} not public`,
      ].filter(Boolean);
      if (bits.length > 0) parts.push(`${name} ${bits.join(', ')}`);
    }
    const head = `data policy: ${count(dropped, 'field')} dropped, ${count(skipped, 'item')} skipped, ${count(replaced, 'field')} replaced (safe paths), ${count(hidden, 'non-public item')} kept out`;
    const lift = this.nextLift === null ? '' : `; next embargo lifts at ${new Date(this.nextLift).toISOString()}`;
    return parts.length > 0 ? `${head} (${parts.join('; ')})${lift}` : `${head}${lift}`;
  }
}
