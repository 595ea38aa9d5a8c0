/**
 * The builds `npm run webhooks -- --warm` runs over `out`, without a deploy command: the receiver's
 * build step (webhook-receiver/build-and-deploy.ts) with the warm renderer (scripts/warm/renderer.ts).
 */
import path from 'node:path';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import { buildAndDeploy, type BuildAndDeploy } from '../../webhook-receiver/build-and-deploy.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export function warmReceiverBuilds(
  out: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  { nodeFlags = [], onStale }: { nodeFlags?: string[]; onStale?: (why: string) => void } = {},
): BuildAndDeploy {
  return buildAndDeploy({
    root,
    out,
    buildScript: path.join(root, 'scripts', 'build.ts'),
    nodeFlags: [SOURCE_CONDITION_FLAG, ...nodeFlags],
    changesFile: `${out}.changes.json`,
    env,
    log,
    warmRenderer: path.join(root, 'scripts', 'warm', 'renderer.ts'),
    ...(onStale ? { onStale } : {}),
  });
}
