/**
 * `npm run snapshot -- --out DIR`: records the press room (every API answer
 * and every media original) so `PRESSROOM_SNAPSHOT=DIR npm run build` can
 * build it later with no network at all.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDotEnv } from '../content-loaders/dot-env.ts';
import { loadConfig } from '../content-loaders/config.ts';
import { formatBytes } from '../content-loaders/format-bytes.ts';
import { recordSnapshot } from '../content-loaders/snapshot/record-press-room.ts';
import { needsEmbeddedApi, startEmbeddedApi } from '../emulator/embedded.ts';
import { createGuardedOpener } from '../image-pipeline/index.ts';

const USAGE = 'usage: npm run snapshot -- --out DIR';
loadDotEnv(path.resolve(import.meta.dirname, '..'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !values.out) {
    console.error(values.help ? USAGE : `snapshot: --out is required\n${USAGE}`);
    return values.help ? 0 : 2;
  }
  const out = path.resolve(values.out);
  const started = performance.now();
  const embedded = needsEmbeddedApi(process.env) ? await startEmbeddedApi(process.env) : undefined;
  if (process.env.PRESSROOM_SNAPSHOT && !process.env.PRESSROOM_API_URL) {
    console.error('snapshot: PRESSROOM_SNAPSHOT is set; a snapshot is recorded from an API (PRESSROOM_API_URL), not from another snapshot');
    return 2;
  }
  try {
    const config = loadConfig(process.env);
    if (embedded) console.log(`snapshot: no PRESSROOM_API_URL, recording the demo press room ${embedded.emulator.pressroom.id}`);
    // Media originals under the same host policy as a build's image downloads (DESIGN.md, Security rules).
    const openMedia = createGuardedOpener({ apiUrl: config.apiUrl!, imageHosts: config.imageHosts });
    const result = await recordSnapshot({ config, out, openMedia, log: (line) => console.log(`snapshot: ${line}`) });
    console.log(
      `snapshot: wrote ${out}: ${result.apiResponses} API responses, ${result.mediaFiles} media originals` +
        `${result.mediaFailures.length ? ` (${result.mediaFailures.length} failed)` : ''}, ${formatBytes(result.bytes)} in ${Math.round(performance.now() - started)} ms`,
    );
    return result.mediaFailures.length > 0 ? 1 : 0;
  } catch (error) {
    console.error(`snapshot: ${(error as Error).message}`);
    return 1;
  } finally {
    await embedded?.close();
  }
}

process.exitCode = await main();
