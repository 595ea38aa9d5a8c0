/** `npm run worker` as its own process, for the scale-out tests and the workers benchmark: its output lines and its exit. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface RunningWorker {
  child: ChildProcess;
  /** stdout and stderr, line by line, as they come. */
  lines: string[];
  exited: Promise<number | null>;
}

export function spawnWorker(args: readonly string[], env: NodeJS.ProcessEnv): RunningWorker {
  const child = spawn(process.execPath, [SOURCE_CONDITION_FLAG, path.join(root, 'scripts', 'worker.ts'), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited };
}
