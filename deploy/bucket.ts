/**
 * The bucket, through the AWS SDK: endpoint, region and credentials from the
 * SDK's standard variables and files (AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL,
 * AWS_REGION, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE…), so
 * the same command serves S3, R2, B2, MinIO and GCS's S3 interface. With a
 * custom endpoint, path-style addressing (`endpoint/bucket/key`), which every
 * S3-compatible server answers. Checksums only where the API requires them
 * (the newer default CRC32 headers are refused by several S3-compatibles); a
 * PUT carries Content-MD5 instead, which every one of them checks.
 * Counts the requests it makes, by kind.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Target } from './target.ts';

export interface ListedObject {
  size: number;
  /** Without quotes: a hex MD5 for a one-part upload, `<hex>-N` for a multipart one. */
  etag: string;
}

export interface PutRequest {
  key: string;
  body: Buffer;
  contentType: string;
  cacheControl: string;
  /** Base64 MD5 of body: the server refuses the PUT when the bytes arrive changed. */
  contentMd5: string;
}

export interface Bucket {
  list(prefix: string): Promise<Map<string, ListedObject>>;
  /** The object's bytes, or undefined when there is no such key. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Stores the object; returns its ETag (without quotes). */
  put(request: PutRequest): Promise<string>;
  /** Deletes the keys, 1000 per request; throws naming the first key the bucket refused. */
  delete(keys: string[]): Promise<void>;
  requests: Record<'list' | 'get' | 'put' | 'delete', number>;
  close(): void;
}

/** A custom endpoint from the SDK's standard variables, when one is set. */
export function customEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  return env.AWS_ENDPOINT_URL_S3?.trim() || env.AWS_ENDPOINT_URL?.trim() || undefined;
}

/**
 * An S3 client for the SDK's standard variables: a custom endpoint gets path-style addressing and,
 * unless one is set, a region; checksums only where the API requires them. Also the client of the
 * renditions' shared store (scale-out/store.ts).
 */
export function createS3Client(env: NodeJS.ProcessEnv, options: { maxSockets?: number } = {}): S3Client {
  const endpoint = customEndpoint(env);
  return new S3Client({
    // S3-compatible servers take any region; AWS itself needs the bucket's (AWS_REGION or the profile's).
    ...(endpoint && !env.AWS_REGION && !env.AWS_DEFAULT_REGION ? { region: 'us-east-1' } : {}),
    ...(env.AWS_DEFAULT_REGION && !env.AWS_REGION ? { region: env.AWS_DEFAULT_REGION } : {}),
    // Read from `env` itself, as the SDK would from process.env (first in its chain): a caller may pass another record.
    ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: endpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      connectionTimeout: 10_000,
      requestTimeout: 120_000,
      // As many connections as uploads at once, over https (S3, R2, B2) or http (a MinIO on the LAN).
      httpsAgent: { maxSockets: options.maxSockets ?? 50, keepAlive: true },
      httpAgent: { maxSockets: options.maxSockets ?? 50, keepAlive: true },
    },
  });
}

export function openBucket(target: Target, env: NodeJS.ProcessEnv, options: { maxSockets?: number } = {}): Bucket {
  const client = createS3Client(env, options);
  const requests = { list: 0, get: 0, put: 0, delete: 0 };
  const { bucket } = target;
  return {
    requests,
    async list(prefix) {
      const objects = new Map<string, ListedObject>();
      let token: string | undefined;
      do {
        requests.list++;
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const item of page.Contents ?? [])
          if (item.Key !== undefined) objects.set(item.Key, { size: item.Size ?? 0, etag: unquote(item.ETag ?? '') });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return objects;
    },
    async get(key) {
      requests.get++;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await answer.Body!.transformToByteArray();
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return undefined;
        throw error;
      }
    },
    async put({ key, body, contentType, cacheControl, contentMd5 }) {
      requests.put++;
      const answer = await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: cacheControl,
          ContentMD5: contentMd5,
          ContentLength: body.length,
        }),
      );
      return unquote(answer.ETag ?? '');
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        requests.delete++;
        const answer = await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const refused = answer.Errors?.[0];
        if (refused) throw new Error(`the bucket refused to delete ${refused.Key} (${refused.Code ?? 'error'}: ${refused.Message ?? ''})`);
      }
    },
    close: () => client.destroy(),
  };
}

const unquote = (etag: string): string => etag.replace(/^(?:W\/)?"|"$/g, '');
