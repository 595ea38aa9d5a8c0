/**
 * Where a deploy goes: `s3://BUCKET[/PREFIX]`. The prefix is the folder of the
 * bucket the CDN serves as the site's root; it is empty or ends with `/`.
 */
export interface Target {
  bucket: string;
  /** `''` or `a/b/`. */
  prefix: string;
}

/** S3's bucket naming rules, loosely (R2, B2 and MinIO accept the same set). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The target of `s3://BUCKET[/PREFIX]`; throws a one-line error naming what is wrong. */
export function parseTarget(url: string): Target {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url.trim());
  if (!match) throw new Error(`the target must look like s3://BUCKET or s3://BUCKET/PREFIX, got ${JSON.stringify(url)}`);
  const bucket = match[1]!;
  if (!BUCKET_NAME.test(bucket)) throw new Error(`${JSON.stringify(bucket)} is not a bucket name (3 to 63 of a-z, 0-9, '.' and '-')`);
  const parts = (match[2] ?? '').split('/').filter(Boolean);
  if (parts.some((part) => part === '.' || part === '..')) throw new Error(`the prefix of ${url} must not hold '.' or '..'`);
  return { bucket, prefix: parts.length ? `${parts.join('/')}/` : '' };
}

/** The object key of a site file. */
export const keyOf = (target: Target, file: string): string => `${target.prefix}${file}`;

/** The site file of an object key under the prefix. */
export const fileOf = (target: Target, key: string): string => key.slice(target.prefix.length);

export const describeTarget = (target: Target): string => `s3://${target.bucket}/${target.prefix}`;
