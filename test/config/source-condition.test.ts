/**
 * The `source` condition that runs the workspace packages from their TypeScript sources in this
 * repository: passed on to the Node processes a command starts, and added to every Vite environment.
 */
import { defaultClientConditions, defaultServerConditions, type EnvironmentOptions } from 'vite';
import { expect, it } from 'vitest';
import { SOURCE_CONDITION, conditionFlags } from '../../src/config/source-condition.ts';
import { sourceCondition } from '../../src/integrations/source-condition.ts';

it('passes on only the --conditions flags of this process', () => {
  expect(conditionFlags(['--cpu-prof', '--conditions=source', '--max-old-space-size=900', '--conditions=x'])).toEqual([
    '--conditions=source',
    '--conditions=x',
  ]);
  expect(conditionFlags(['--inspect'])).toEqual([]);
});

it("adds the condition to Vite's client and server environments, keeping their own conditions", () => {
  const hook = sourceCondition().configEnvironment as (name: string, options: EnvironmentOptions) => void;
  const environments: Record<string, EnvironmentOptions> = {
    client: {},
    ssr: {},
    prerender: { consumer: 'server' },
    custom: { resolve: { conditions: ['worker'] } },
  };
  for (const [name, options] of Object.entries(environments)) hook(name, options);
  expect(environments.client!.resolve!.conditions).toEqual([SOURCE_CONDITION, ...defaultClientConditions]);
  expect(environments.ssr!.resolve!.conditions).toEqual([SOURCE_CONDITION, ...defaultServerConditions]);
  expect(environments.prerender!.resolve!.conditions).toEqual([SOURCE_CONDITION, ...defaultServerConditions]);
  expect(environments.custom!.resolve!.conditions).toEqual([SOURCE_CONDITION, 'worker']);
});
