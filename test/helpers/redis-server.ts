/**
 * A real Redis for a test: Debian's redis-server on 127.0.0.1 at a free port
 * (a socket listens on port 0, closes, and the server takes that port), with
 * no persistence, ready once it answers PING. `stop()` kills it by its PID
 * (as a crash would); `command()` sends one command over a plain socket in
 * RESP, enough for a test to look inside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type AddressInfo } from 'node:net';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  /** One command's reply, as RESP text parsed into strings, numbers, arrays or null. */
  command(...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Parses one RESP reply from `text` at `at`; returns it and where it ended, or undefined when incomplete. */
function parseReply(text: string, at = 0): { value: unknown; end: number } | undefined {
  const lineEnd = text.indexOf('\r\n', at);
  if (lineEnd < 0) return undefined;
  const kind = text[at];
  const line = text.slice(at + 1, lineEnd);
  const next = lineEnd + 2;
  if (kind === '+') return { value: line, end: next };
  if (kind === '-') return { value: new Error(line), end: next };
  if (kind === ':') return { value: Number(line), end: next };
  if (kind === '$') {
    const length = Number(line);
    if (length < 0) return { value: null, end: next };
    const bytes = Buffer.from(text.slice(next), 'latin1');
    if (bytes.length < length + 2) return undefined;
    return { value: bytes.subarray(0, length).toString('latin1'), end: next + length + 2 };
  }
  if (kind === '*') {
    const count = Number(line);
    if (count < 0) return { value: null, end: next };
    const items: unknown[] = [];
    let end = next;
    for (let i = 0; i < count; i++) {
      const item = parseReply(text, end);
      if (!item) return undefined;
      items.push(item.value);
      end = item.end;
    }
    return { value: items, end };
  }
  throw new Error(`unexpected RESP reply ${JSON.stringify(text.slice(at, at + 20))}`);
}

function sendCommand(port: number, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const reply = parseReply(received);
      if (reply) {
        socket.destroy();
        resolve(reply.value);
      }
    });
    socket.on('error', reject);
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    await exited;
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pong = await sendCommand(port, ['PING']).catch(() => undefined);
    if (pong === 'PONG') break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server on port ${port} did not answer PING`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, command: (...args) => sendCommand(port, args), stop };
}
