/**
 * Runs s3rver (the maintained `@20minutes/s3rver` fork) for s3-server.ts in
 * its own process: `node --openssl-legacy-provider s3-server-process.ts DIR BUCKET`.
 * s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3
 * keeps in its legacy provider; a process of its own also keeps the server
 * answering while a test waits synchronously, and lets a test kill it midway.
 * Prints `{"port":N}` once listening, then one JSON line per request as it arrives.
 */
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
const S3rver = require('@20minutes/s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  httpServer: Server;
};

/**
 * s3rver lists a bucket by reading each folder and then stat-ing each name, and parses each object's
 * metadata file, while a PUT writes the object and then that file in place and a DELETE unlinks them:
 * a listing beside them fails with a 500 now and then (a name gone between the two calls, half a
 * metadata file), where S3 lists a consistent bucket. A deploy lists while it uploads, and the tests
 * give the SDK one attempt per request (s3-server.ts), so the server itself tries the listing again.
 */
type Store = { prototype: { listObjects(this: unknown, ...args: unknown[]): Promise<unknown> } };
const FilesystemStore = require('@20minutes/s3rver/lib/stores/filesystem') as Store;
const listObjects = FilesystemStore.prototype.listObjects;
FilesystemStore.prototype.listObjects = async function (...args) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await listObjects.apply(this, args);
    } catch (error) {
      if (attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
};

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  // The SDK signs; whether s3rver's own check agrees with it is not what the tests are about.
  allowMismatchedSignatures: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const address = await server.run();
server.httpServer.prependListener('request', (req) => {
  const url = new URL(req.url ?? '/', 'http://s3');
  const [, , ...key] = url.pathname.split('/');
  process.stdout.write(`${JSON.stringify({ method: req.method, key: decodeURIComponent(key.join('/')), query: url.search })}\n`);
});
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
