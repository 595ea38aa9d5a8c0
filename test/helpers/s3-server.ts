/**
 * A real S3-compatible server for a test: s3rver on 127.0.0.1 port 0 in a
 * child process (s3-server-process.ts), storing in a temp folder, with one
 * bucket. It reports every request in the order it arrives (method, key,
 * query), which is how tests see the order of a deploy's operations.
 * `stop()` kills it at any moment (as a crash would) and keeps what it
 * stored, so a server started again on the same folder serves the same
 * bucket; `dispose()` also removes the folder.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** s3rver's built-in credentials. */
export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface LoggedRequest {
  method: string;
  /** Object key (URL-decoded) or '' for a bucket-level request. */
  key: string;
  query: string;
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** Where it stores the bucket. */
  directory: string;
  /** Every request so far, in arrival order. */
  requests: LoggedRequest[];
  /** The AWS variables a deploy needs to reach it (one attempt per request: a stopped server fails at once). */
  env: Record<string, string>;
  /** Called with each request as it is reported. */
  onRequest: (request: LoggedRequest) => void;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startS3Server({ bucket = 'press', directory }: { bucket?: string; directory?: string } = {}): Promise<S3Server> {
  const dir = directory ?? (await mkdtemp(path.join(os.tmpdir(), 'pressroom-s3rver-')));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', path.join(import.meta.dirname, 's3-server-process.ts'), dir, bucket],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const ready: { server?: S3Server } = {};
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { port?: number } & LoggedRequest;
      if (message.port !== undefined) return resolve(message.port);
      ready.server?.requests.push(message);
      ready.server?.onRequest(message);
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const server: S3Server = {
    endpoint,
    bucket,
    directory: dir,
    requests: [],
    env: { ...S3_CREDENTIALS, AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: 'us-east-1', AWS_MAX_ATTEMPTS: '1' },
    onRequest: () => undefined,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async dispose() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  ready.server = server;
  return server;
}
