/**
 * The deploy bench's reference: the given site files uploaded with plain
 * PutObject calls and nothing else (no listing, no manifest, no order), as
 * many at once as the deploy uploads. `node --conditions=source bench/upload-files.ts SITE_DIR
 * s3://BUCKET/PREFIX LIST_FILE CONCURRENCY`, the AWS variables as the deploy's.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { openBucket } from '../deploy/bucket.ts';
import { contentTypeOf, cacheControlOf } from '../deploy/headers.ts';
import { createHash } from 'node:crypto';
import { keyOf, parseTarget } from '../deploy/target.ts';

const [siteDir, url, listFile, concurrency] = process.argv.slice(2);
const target = parseTarget(url!);
const files = (await readFile(listFile!, 'utf8')).split('\n').filter(Boolean);
const bucket = openBucket(target, process.env, { maxSockets: Number(concurrency) });
const limit = pLimit(Number(concurrency));
await Promise.all(
  files.map((file) =>
    limit(async () => {
      const body = await readFile(path.join(siteDir!, file));
      await bucket.put({
        key: keyOf(target, file),
        body,
        contentType: contentTypeOf(file),
        cacheControl: cacheControlOf(file),
        contentMd5: createHash('md5').update(body).digest('base64'),
      });
    }),
  ),
);
bucket.close();
