/**
 * `scripts/webhooks.ts` run as a service runs it (its own process, a free port), with its output
 * collected, and subscribed to the emulator's webhooks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface ReceiverProcess {
  process: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** The first match of `pattern` in its output; throws after `ms`, or when it exits first. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray>;
}

/** Starts the receiver on port 0 with a 200 ms debounce, building into `out`; `node` is the Node binary to run it with; `args` more options (`--warm`). */
export function spawnReceiver(node: string, out: string, env: NodeJS.ProcessEnv, args: string[] = []): ReceiverProcess {
  const receiver = spawn(
    node,
    [SOURCE_CONDITION_FLAG, 'scripts/webhooks.ts', '--port', '0', '--out', out, '--debounce-ms', '200', ...args],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  receiver.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    process: receiver,
    output: () => output,
    async waitFor(pattern, ms) {
      const deadline = Date.now() + ms;
      while (!pattern.test(output)) {
        if (Date.now() > deadline || receiver.exitCode !== null) throw new Error(`no ${pattern} in the receiver's output:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return pattern.exec(output)!;
    },
  };
}

/** Waits for the receiver to listen, subscribes it to the emulator at `apiUrl` with `secret`; its base URL. */
export async function subscribeReceiver(receiver: ReceiverProcess, apiUrl: string, secret: string): Promise<string> {
  const [, url] = await receiver.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\/webhooks/, 30_000);
  const subscribed = await fetch(`${apiUrl}/_emulator/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${url}/webhooks`, secret }),
  });
  if (subscribed.status !== 201) throw new Error(`subscribing the receiver to the emulator's webhooks: ${subscribed.status}`);
  return url!;
}
