/**
 * Resolves the workspace packages to their TypeScript sources under Vite (Astro's build and dev
 * server, Vitest): the condition of src/config/source-condition.ts added to every environment's
 * `resolve.conditions`. A per-environment hook, because Vite hands the top-level `resolve` to the
 * client environment only, and Astro's pages render in server environments of their own.
 */
import { defaultClientConditions, defaultServerConditions, type Plugin } from 'vite';
import { SOURCE_CONDITION } from '../config/source-condition.ts';

export function sourceCondition(): Plugin {
  return {
    name: 'pressroom-static:source-condition',
    configEnvironment(name, options) {
      const client = (options.consumer ?? (name === 'client' ? 'client' : 'server')) === 'client';
      const conditions = options.resolve?.conditions ?? (client ? defaultClientConditions : defaultServerConditions);
      options.resolve = { ...options.resolve, conditions: [SOURCE_CONDITION, ...conditions.filter((c) => c !== SOURCE_CONDITION)] };
    },
  };
}
