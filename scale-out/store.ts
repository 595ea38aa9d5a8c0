/**
 * The renditions' shared store named by PRESSROOM_STORE_URL: a folder on a
 * shared volume (`file:///path`, the image pipeline's folder store) or an
 * S3-compatible bucket (`s3://bucket/prefix`) through the deploy command's S3
 * client (the same AWS_* variables). Either way an output lives under
 * `out/<name>`, the name the local image cache gives it, so builds and
 * workers of the same code agree on every name.
 *
 * `get(name, file)` writes `file` directly: its caller hands it a temporary
 * path and commits it into the cache itself, so the store adds no copy or
 * rename of its own.
 */
import { createReadStream } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { assertOutputName, createFolderRenditionStore, storeCall, type SharedRenditionStore } from '@pressroom-static/image-pipeline';
import { createS3Client } from '../deploy/bucket.ts';
import type { SharedStoreLocation } from '../src/config/environment.ts';

/** How the store is named in messages: the URL as configured (it never holds a credential). */
export function describeStore(location: SharedStoreLocation): string {
  return location.kind === 'file' ? `file://${location.dir}` : `s3://${location.bucket}/${location.prefix}`;
}

export function openSharedStore(location: SharedStoreLocation, env: NodeJS.ProcessEnv): SharedRenditionStore {
  return location.kind === 'file' ? createFolderRenditionStore(location.dir) : createBucketRenditionStore(location, env);
}

const notFound = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

function createBucketRenditionStore(location: Extract<SharedStoreLocation, { kind: 's3' }>, env: NodeJS.ProcessEnv): SharedRenditionStore {
  const client = createS3Client(env);
  const where = describeStore(location);
  const Bucket = location.bucket;
  const keyOf = (name: string) => {
    assertOutputName(name);
    return `${location.prefix}out/${name}`;
  };
  return {
    where,
    check: () => storeCall(where, 'answer', async () => void (await client.send(new HeadBucketCommand({ Bucket })))),
    has: (name) =>
      storeCall(where, `look up ${name}`, async () => {
        try {
          await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(name) }));
          return true;
        } catch (error) {
          if (notFound(error)) return false;
          throw error;
        }
      }),
    get: (name, file) =>
      storeCall(where, `read ${name}`, async () => {
        let body: Uint8Array;
        try {
          const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(name) }));
          body = await answer.Body!.transformToByteArray();
        } catch (error) {
          if (notFound(error)) return false;
          throw error;
        }
        // `file` is the caller's scratch path, committed by the caller (takeFromShared): written
        // in place, no rename of our own. A failed write leaves no half file behind.
        await writeFile(file, body).catch(async (error: unknown) => {
          await rm(file, { force: true });
          throw error;
        });
        return true;
      }),
    put: (name, file) =>
      storeCall(where, `write ${name}`, async () => {
        const { size } = await stat(file);
        // One PUT is atomic in S3: the object appears whole or not at all.
        await client.send(new PutObjectCommand({ Bucket, Key: keyOf(name), Body: createReadStream(file), ContentLength: size }));
      }),
    close: () => client.destroy(),
  };
}
