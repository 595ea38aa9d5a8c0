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
