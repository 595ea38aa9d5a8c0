/**
 * The parts a build's pipeline (`pipeline.ts`) and a rendition worker (`jobs.ts`) both stand on:
 * the settings, the cache store, the host policy with the fetch it guards, the sharp job limiter,
 * the counters, the originals (`sources.ts`) and the output writer. One assembly, so a worker
 * fetches under the very policy and caps a build does.
 */
import pLimit from 'p-limit';
import { createHostPolicy } from './host-policy.ts';
import { createOutputs } from './outputs.ts';
import { createPinnedFetch } from './pinned-fetch.ts';
import { resolveSettings } from './settings.ts';
import { configureSharp } from './sharp-setup.ts';
import { createSources } from './sources.ts';
import { createStats } from './stats.ts';
import { createStore } from './store.ts';
import type { ImagePipelineOptions } from './types.ts';

export function createPipelineCore(options: ImagePipelineOptions) {
  configureSharp();
  const settings = resolveSettings(options);
  const store = createStore(options.cacheDir);
  // Temporary files of builds killed mid-way; an hour is far longer than any download or encode.
  void store.sweep(3_600_000).catch(() => undefined);
  const checkAddresses = options.checkAddresses ?? true;
  const policy = createHostPolicy({ apiUrl: options.apiUrl, imageHosts: options.imageHosts ?? [], checkAddresses, lookup: options.lookup });
  // Live builds open sockets: each one goes to an address the policy checked as it connected.
  // Snapshot builds replay through `options.fetch`, which opens none.
  const fetch = checkAddresses ? createPinnedFetch(policy) : options.fetch;
  const cpu = pLimit(settings.cores);
  const stats = createStats();
  const localOriginals = new Set(options.localOriginals ?? []);
  const trusted = options.trustedOriginals ?? new Map<string, string>();
  const sources = createSources({ store, stats, settings, cpu, fetch, policy, localOriginals, trusted });
  return { settings, store, stats, cpu, sources, outputs: createOutputs(store) };
}
