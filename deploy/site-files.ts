/**
 * The built site as the deploy sees it: every regular file under the folder
 * (names only: a deploy through the change report reads nothing more of the
 * files it does not upload), and a file's size and the MD5 a bucket reports as
 * its ETag. A file stored in
 * one part has the hex MD5 of its bytes as ETag; one stored in N parts (by
 * `aws s3 sync`, rclone, a console upload) has the MD5 of its parts' MD5s
 * followed by `-N`, which depends on the part size the uploader chose.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface SiteFile {
  /** Site path, `/`-separated, relative to the site folder. */
  path: string;
}

/** Every regular file under `dir`, by site path (sorted); throws when `dir` is not a folder. */
export async function siteFiles(dir: string): Promise<Map<string, SiteFile>> {
  const names = (await filesUnder(path.resolve(dir), '')).sort();
  return new Map(names.map((name) => [name, { path: name }]));
}

/**
 * The site paths of the files under `folder`, its subfolders read at once: a recursive
 * `readdir` reads one folder after another (1,000 of them at scale 1000), and blocking
 * `readdirSync` would hold up the uploads that run meanwhile.
 */
async function filesUnder(folder: string, prefix: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(folder, entry.name), `${prefix}${entry.name}/`)
        : entry.isFile()
          ? [`${prefix}${entry.name}`]
          : [],
    ),
  );
  return nested.flat();
}

/** The first of `files` (absolute paths) that exists, or undefined when none does. */
export async function firstPresent(files: string[]): Promise<string | undefined> {
  const found = await Promise.all(
    files.map((file) =>
      access(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return files[found.indexOf(true)];
}

export interface FileDigests {
  size: number;
  /** Hex MD5 of the whole file: a one-part ETag. */
  md5: string;
  /** Hex SHA-256: what the change report and the manifest name contents by. */
  sha256: string;
}

/** Size, MD5 and SHA-256 of a file, in one read. */
export async function digestFile(file: string): Promise<FileDigests> {
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    md5.update(chunk as Buffer);
    sha256.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, md5: md5.digest('hex'), sha256: sha256.digest('hex') };
}

const MiB = 1024 * 1024;
/** Part sizes uploaders use: the AWS CLI and SDKs' 8 MiB, lib-storage's 5 MiB, rclone's and others' 16, 64, 100 MiB… */
const COMMON_PART_SIZES = [5, 8, 10, 15, 16, 25, 32, 50, 64, 100, 128, 256, 512].map((n) => n * MiB);

/** The part count of a multipart ETag (`"…-3"` → 3), or undefined for a one-part ETag. */
export function partsOf(etag: string): number | undefined {
  const match = /-(\d+)$/.exec(etag);
  return match ? Number(match[1]) : undefined;
}

/**
 * Whether the file at `file` (of `size` bytes) has the multipart ETag `etag`: tried for every
 * common part size that splits the file into as many parts as the ETag says.
 */
export async function matchesMultipartEtag(file: string, size: number, etag: string): Promise<boolean> {
  const parts = partsOf(etag);
  if (parts === undefined) return false;
  for (const partSize of COMMON_PART_SIZES) {
    if (Math.ceil(size / partSize) !== parts) continue;
    if ((await multipartEtag(file, partSize)) === etag) return true;
  }
  return false;
}

/** The ETag of `file` uploaded in parts of `partSize` bytes: MD5 of the parts' binary MD5s, `-N`. */
export async function multipartEtag(file: string, partSize: number): Promise<string> {
  const partDigests: Buffer[] = [];
  let part = createHash('md5');
  let filled = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: MiB })) {
    let data = chunk as Buffer;
    while (data.length > 0) {
      const take = Math.min(partSize - filled, data.length);
      part.update(data.subarray(0, take));
      filled += take;
      data = data.subarray(take);
      if (filled === partSize) {
        partDigests.push(part.digest());
        part = createHash('md5');
        filled = 0;
      }
    }
  }
  if (filled > 0 || partDigests.length === 0) partDigests.push(part.digest());
  return `${createHash('md5').update(Buffer.concat(partDigests)).digest('hex')}-${partDigests.length}`;
}
