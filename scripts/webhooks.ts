/**
 * `npm run webhooks -- [--port 8787] [--host 127.0.0.1] [--out dist] [--debounce-ms 1000]`:
 * the webhook receiver for publish-triggered deploys. Verified deliveries
 * (PRESSROOM_WEBHOOK_SECRET) set off `npm run build` into --out, one build at a
 * time with bursts coalesced, then PRESSROOM_DEPLOY_COMMAND after each good
 * build. Ctrl-C stops taking deliveries and waits for a running build and
 * deploy to finish; a second Ctrl-C ends them.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDotEnv } from '../content-loaders/dot-env.ts';
import { ConfigError, loadConfig } from '../content-loaders/config.ts';
import { createBuildQueue } from '../webhook-receiver/build-queue.ts';
import { buildAndDeploy } from '../webhook-receiver/build-and-deploy.ts';
import { WEBHOOK_PATH, startWebhookReceiver } from '../webhook-receiver/server.ts';

const USAGE = 'usage: npm run webhooks -- [--port 8787] [--host 127.0.0.1] [--out dist] [--debounce-ms 1000]';
const root = path.resolve(import.meta.dirname, '..');
loadDotEnv(root);

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`--${name}`, [`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`]);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, out: { type: 'string' }, 'debounce-ms': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig(process.env);
  for (const warning of config.warnings) console.warn(`webhooks: ${warning}`);
  if (!config.webhookSecret) {
    console.error('webhooks: PRESSROOM_WEBHOOK_SECRET is not set: the receiver verifies every delivery with it (the whsec_… secret of your webhook subscription)');
    return 2;
  }
  const out = path.resolve(values.out ?? path.join(root, 'dist'));
  const log = (line: string) => console.log(line);
  const builder = buildAndDeploy({ root, out, deployCommand: config.deployCommand, env: process.env, log });
  const queue = createBuildQueue({
    run: builder.run,
    debounceMs: integer('debounce-ms', values['debounce-ms'], 1000, 0, 600_000),
    onBuilt: (b) => log(`webhooks: ${b.ok ? 'done' : 'FAILED'}: ${b.summary} (${b.requests} ${b.requests === 1 ? 'delivery' : 'deliveries'})`),
  });
  const receiver = await startWebhookReceiver({
    secret: config.webhookSecret,
    queue,
    port: integer('port', values.port, 8787, 0, 65535),
    host: values.host ?? '127.0.0.1',
    log,
  });
  log(`webhooks: listening on ${receiver.url}${WEBHOOK_PATH} (status: ${receiver.url}/healthz); builds go to ${out}${config.deployCommand ? ', then PRESSROOM_DEPLOY_COMMAND' : ''}`);

  let signals = 0;
  let forced!: () => void;
  const secondSignal = new Promise<void>((resolve) => (forced = resolve));
  await new Promise<void>((resolve) => {
    const onSignal = () => {
      signals++;
      if (signals === 1) return resolve();
      log('webhooks: ending the running build or deploy');
      builder.stop();
      forced();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  log(`webhooks: stopping: no more deliveries${queue.status().state === 'idle' ? '' : '; waiting for the running build and deploy (Ctrl-C again to end them)'}`);
  await receiver.close();
  await Promise.race([queue.idle(), secondSignal]);
  // Forced: no further build may start (a pending one would, once the ended one reports).
  if (signals > 1) process.exit(130);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`webhooks: ${(error as Error).message}`);
  process.exitCode = error instanceof ConfigError ? 2 : 1;
}
