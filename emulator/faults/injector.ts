/**
 * Holds the active fault rules and decides, per request, whether one fires.
 *
 * Rules are tried in the order they were added; the first that matches the
 * method and path *and* fires wins. A rule with `rate` draws from its own
 * PRNG stream, seeded from the injector seed and the rule id, so a run with the
 * same seed, rules and request sequence makes the same decisions, and adding
 * another rule does not shift an existing rule's sequence.
 */
import { Rng, hash32 } from '../model/random.ts';
import { compileRouteGlob, validateFaultRule } from './rules.ts';
import type { FaultKind, FaultRule, FaultRuleInput, FaultStatus } from './rules.ts';

function forkRandom(seed: number | string, ruleId: string): () => number {
  const rng = new Rng(hash32(seed, ruleId));
  return () => rng.float();
}

export interface FaultDecision {
  ruleId: string;
  kind: FaultKind;
  status?: FaultStatus;
  retryAfterSeconds?: number;
  latencyMs?: number;
  stallMs?: number;
  /** Short description for logs, e.g. `status:503`, `latency:200ms`, `reset`. */
  label: string;
}

export interface FaultRuleState extends FaultRule {
  /** Fires left before the rule expires; null = unlimited. */
  remaining: number | null;
  /** Requests that matched route and method. */
  matched: number;
  /** Times the fault actually fired. */
  fired: number;
  /** True once `count` is used up; an expired rule never fires again. */
  expired: boolean;
}

export interface FaultInjector {
  /** Validates and adds a rule (replacing one with the same id); throws FaultRuleError if invalid. */
  add(input: unknown): FaultRule;
  remove(id: string): boolean;
  clear(): void;
  list(): FaultRuleState[];
  /** Decides the fault for one request, consuming a count when a rule fires. */
  decide(method: string, path: string): FaultDecision | null;
}

/** Thrown by `add`; the message is the one-line validation error naming the bad field. */
export class FaultRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultRuleError';
  }
}

interface ActiveRule {
  rule: FaultRule;
  pattern: RegExp;
  random: () => number;
  remaining: number | null;
  matched: number;
  fired: number;
}

export function faultLabel(rule: Pick<FaultRule, 'kind' | 'status' | 'latencyMs' | 'stallMs'>): string {
  switch (rule.kind) {
    case 'status':
      return `status:${rule.status ?? 500}`;
    case 'latency':
      return `latency:${rule.latencyMs ?? 0}ms`;
    case 'stall':
      return rule.stallMs === undefined ? 'stall' : `stall:${rule.stallMs}ms`;
    default:
      return rule.kind;
  }
}

export function createFaultInjector(options: { seed?: number | string } = {}): FaultInjector {
  const seed = String(options.seed ?? 0);
  const rules: ActiveRule[] = [];
  let nextId = 1;

  const toState = (r: ActiveRule): FaultRuleState => ({
    ...r.rule,
    remaining: r.remaining,
    matched: r.matched,
    fired: r.fired,
    expired: r.remaining === 0,
  });

  return {
    add(input) {
      const result = validateFaultRule(input);
      if (!result.ok) throw new FaultRuleError(result.error);
      const given: FaultRuleInput = result.rule;
      let id = given.id;
      if (id === undefined) {
        do id = `fault_${nextId++}`;
        while (rules.some((r) => r.rule.id === id));
      }
      const rule: FaultRule = { ...given, id };
      const active: ActiveRule = {
        rule,
        pattern: compileRouteGlob(rule.route),
        random: forkRandom(seed, id),
        remaining: rule.count ?? null,
        matched: 0,
        fired: 0,
      };
      const existing = rules.findIndex((r) => r.rule.id === id);
      if (existing >= 0) rules[existing] = active;
      else rules.push(active);
      return { ...rule };
    },

    remove(id) {
      const i = rules.findIndex((r) => r.rule.id === id);
      if (i < 0) return false;
      rules.splice(i, 1);
      return true;
    },

    clear() {
      rules.length = 0;
    },

    list() {
      return rules.map(toState);
    },

    decide(method, path) {
      const m = method.toUpperCase();
      const q = path.indexOf('?');
      const pathname = q >= 0 ? path.slice(0, q) : path;
      for (const r of rules) {
        if (r.remaining === 0) continue;
        if (r.rule.method !== undefined && r.rule.method !== '*' && r.rule.method !== m) continue;
        if (!r.pattern.test(pathname)) continue;
        r.matched++;
        if (r.rule.rate !== undefined && !(r.random() < r.rule.rate)) continue;
        r.fired++;
        if (r.remaining !== null) r.remaining--;
        const { kind, status, retryAfterSeconds, latencyMs, stallMs } = r.rule;
        const decision: FaultDecision = { ruleId: r.rule.id, kind, label: faultLabel(r.rule) };
        if (status !== undefined) decision.status = status;
        if (retryAfterSeconds !== undefined) decision.retryAfterSeconds = retryAfterSeconds;
        if (latencyMs !== undefined) decision.latencyMs = latencyMs;
        if (stallMs !== undefined) decision.stallMs = stallMs;
        return decision;
      }
      return null;
    },
  };
}
