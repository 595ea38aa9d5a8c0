/**
 * `npm run bench` — how close loading a press room comes to its ideal.
 *
 * Loading is latency-bound: ideal = requests × latency ÷ concurrency. The
 * bench starts the emulator at a scale, injects a fixed latency on every API
 * route, runs every collection source through one client (exactly the
 * requests a build makes), and reports the elapsed time as a ratio to the
 * ideal computed from the requests actually made, plus peak memory. A run
 * without injected latency shows the fixed cost per request on this machine.
 * Results go to bench/results/ (not committed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createNewsroomClient } from '@pressroom-static/content-loaders';
import { SOURCES } from '@pressroom-static/content-loaders';
import { fetchOnlyContext } from '@pressroom-static/content-loaders';
import { startEmulator } from '../emulator/server.ts';
import { parseCommandLine } from '../scripts/cli.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node bench/api-load.ts',
  summary: 'API loading against its ideal (requests × latency ÷ concurrency), with peak memory. Run as node bench/api-load.ts.',
  flags: {
    scale: { type: 'string', value: 'N', help: 'press releases in the emulated press room (default 2000)' },
    latency: { type: 'string', value: 'MS', help: 'latency injected on every API route (default 40)' },
    concurrency: { type: 'string', value: 'N', help: 'concurrent requests (default 8)' },
  },
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);
const values = { scale: '2000', latency: '40', concurrency: '8', ...parsed.values };
const scale = Number(values.scale);
const latencyMs = Number(values.latency);
const concurrency = Number(values.concurrency);

async function loadEverything(url: string, pressroomId: number) {
  const client = createNewsroomClient({ baseUrl: url, pressroomId, concurrency });
  const started = performance.now();
  let items = 0;
  await Promise.all(
    Object.values(SOURCES).map(async (source) => {
      for (const batch of await source.fetch(client, fetchOnlyContext())) items += batch.items.length;
    }),
  );
  const ms = performance.now() - started;
  const stats = client.stats();
  return { ms, items, requests: stats.requests, bytes: stats.bytes };
}

const generationStart = performance.now();
const emulator = await startEmulator({ scale, frozenClock: true });
const generationMs = performance.now() - generationStart;
const admin = (body: unknown) =>
  fetch(`${emulator.url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

try {
  const bare = await loadEverything(emulator.url, emulator.pressroom.id);
  await admin({ route: '/v1/*', kind: 'latency', latencyMs });
  const slow = await loadEverything(emulator.url, emulator.pressroom.id);
  const ideal = (slow.requests * latencyMs) / concurrency;
  const result = {
    scale,
    latencyMs,
    concurrency,
    emulatorStartMs: Math.round(generationMs),
    items: slow.items,
    requests: slow.requests,
    bytes: slow.bytes,
    withLatency: { ms: Math.round(slow.ms), idealMs: Math.round(ideal), ratio: Number((slow.ms / ideal).toFixed(2)) },
    withoutLatency: { ms: Math.round(bare.ms), perRequestMs: Number((bare.ms / bare.requests).toFixed(2)) },
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  const dir = path.join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `api-load-scale${scale}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `api load, scale ${scale}: ${result.items} items in ${result.requests} requests at ${latencyMs} ms latency × ${concurrency} concurrent\n` +
      `  elapsed ${result.withLatency.ms} ms vs ideal ${result.withLatency.idealMs} ms → ratio ${result.withLatency.ratio}\n` +
      `  without latency ${result.withoutLatency.ms} ms (${result.withoutLatency.perRequestMs} ms per request; emulator start ${result.emulatorStartMs} ms)\n` +
      `  peak RSS ${result.peakRssMiB} MiB`,
  );
} finally {
  await emulator.close();
}
