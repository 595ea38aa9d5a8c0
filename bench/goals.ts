/**
 * The performance goals of the project as ratios to a reference measured in
 * the same run, and the one JSON file a bench run leaves behind.
 */
import os from 'node:os';

export interface Goal {
  /** Short key, e.g. `pages`. */
  name: string;
  /** What was measured against what. */
  what: string;
  unit: 'ms' | 'MiB' | 'requests';
  measured: number;
  /** The ideal (or the cold build, a time budget, a memory limit) it is compared with, in `unit`. */
  reference: number;
  against: string;
  /** measured ÷ reference for time and memory; reference ÷ measured for throughput. */
  ratio: number;
  /** `at-most` (time, memory) or `at-least` (throughput) `target`. */
  direction: 'at-most' | 'at-least';
  target: number;
  met: boolean;
  /** Peak RSS of the measured process (a build: all its processes summed), MiB, when known. */
  peakRssMiB: number | null;
  /** The benchmark that measured it: set in a run file, so `--keep` can take a part back out of it. */
  bench?: string;
}

interface GoalFields {
  name: string;
  what: string;
  measured: number;
  reference: number;
  against: string;
  target: number;
  peakRssMiB?: number | null;
  unit?: Goal['unit'];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A time (or a memory peak) that should stay within `target` × its reference. */
export function atMostGoal(fields: GoalFields): Goal {
  return finish(fields, fields.measured / fields.reference, 'at-most');
}

/** A throughput (same work ÷ time) that should reach at least `target` × the reference's: the ratio is reference time ÷ measured time. */
export function throughputGoal(fields: GoalFields): Goal {
  return finish(fields, fields.reference / fields.measured, 'at-least');
}

function finish(fields: GoalFields, rawRatio: number, direction: Goal['direction']): Goal {
  const ratio = Number.isFinite(rawRatio) ? round2(rawRatio) : Number.NaN;
  return {
    name: fields.name,
    what: fields.what,
    unit: fields.unit ?? 'ms',
    measured: Math.round(fields.measured),
    reference: Math.round(fields.reference),
    against: fields.against,
    ratio,
    direction,
    target: fields.target,
    met: Number.isFinite(ratio) && (direction === 'at-most' ? ratio <= fields.target : ratio >= fields.target),
    peakRssMiB: fields.peakRssMiB ?? null,
  };
}

/** When a benchmark ran, and how busy the machine was as it started. */
export interface PartRun {
  startedAt: string;
  finishedAt: string;
  loadAverageAtStart: number[];
}

/** What one benchmark reports: its goals and the figures behind them. */
export interface BenchPart {
  bench: string;
  goals: Goal[];
  details: Record<string, unknown>;
  /** Set by `npm run bench` once the benchmark has run (a part kept from an earlier run keeps its own). */
  ran?: PartRun;
}

export interface BenchRun {
  profile: { name: string; scale: number; images?: number; kits?: number };
  machine: { cores: number; cpu: string; memoryGiB: number; node: string; platform: string; loadAverageAtStart: number[] };
  startedAt: string;
  finishedAt: string;
  allMet: boolean;
  goals: Goal[];
  parts: Record<string, Record<string, unknown>>;
  /** When each part ran: parts kept from an earlier run (`--keep`) say so here. */
  ran: Record<string, PartRun | null>;
}

export function machine(): BenchRun['machine'] {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map(round2),
  };
}

/** One run's parts as one record: every goal in bench order, met only when all are. */
export function combine(
  profile: BenchRun['profile'],
  machineInfo: BenchRun['machine'],
  startedAt: Date,
  parts: BenchPart[],
  finishedAt = new Date(),
): BenchRun {
  const goals = parts.flatMap((p) => p.goals.map((goal) => ({ ...goal, bench: p.bench })));
  return {
    profile,
    machine: machineInfo,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    allMet: goals.length > 0 && goals.every((g) => g.met),
    goals,
    parts: Object.fromEntries(parts.map((p) => [p.bench, p.details])),
    ran: Object.fromEntries(parts.map((p) => [p.bench, p.ran ?? null])),
  };
}

/** One line per goal for the terminal. */
export function goalLine(goal: Goal): string {
  const sign = goal.direction === 'at-most' ? '≤' : '≥';
  const rss = goal.peakRssMiB === null ? '' : `, peak RSS ${goal.peakRssMiB} MiB`;
  return `${goal.met ? 'met   ' : 'MISSED'} ${goal.name.padEnd(12)} ${goal.ratio} (${sign} ${goal.target}): ${goal.measured} ${goal.unit} vs ${goal.against} ${goal.reference} ${goal.unit}${rss}`;
}
