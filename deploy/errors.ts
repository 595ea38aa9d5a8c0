/** A step of a deploy that failed, with what was already done: the deploy's one line names both. */
export class DeployError extends Error {
  override name = 'DeployError';
}

export { firstLine } from '../scripts/cli.ts';
