/**
 * Streams a download's body to a temporary file while hashing it and keeping
 * its first and last bytes for sniffing, so memory stays flat whatever the
 * file size. Enforces the byte cap as the body arrives and the declared length
 * at the end; the temporary file is removed when anything fails.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '@pressroom-static/content-loaders';
import type { DownloadGuard } from './download-guard.ts';
import { networkMessage, RefusedError } from './errors.ts';
import { SNIFF_BYTES } from './sniff.ts';

const TAIL_BYTES = 64;

export interface StreamedBody {
  /** Temporary file holding the body; the caller moves or deletes it. */
  file: string;
  sha256: string;
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

export interface BodyLimits {
  /** Folder for the temporary file (same file system as the cache, so a rename moves it). */
  tmpDir: string;
  maxBytes: number;
  /** The Content-Length the answer declared, if any: a shorter body is refused as truncated. */
  declared: number | undefined;
}

/** The first SNIFF_BYTES and the last TAIL_BYTES of a stream, without holding the rest. */
function createEndsSample() {
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let tail = Buffer.alloc(0);
  return {
    add(bytes: Buffer): void {
      if (headLength < SNIFF_BYTES) {
        headChunks.push(bytes.subarray(0, SNIFF_BYTES - headLength));
        headLength += Math.min(bytes.length, SNIFF_BYTES - headLength);
      }
      tail =
        bytes.length >= TAIL_BYTES
          ? Buffer.from(bytes.subarray(bytes.length - TAIL_BYTES))
          : Buffer.concat([tail, bytes]).subarray(-TAIL_BYTES);
    },
    head: () => Buffer.concat(headChunks),
    tail: () => tail,
  };
}

export async function streamBodyToFile(body: ReadableStream<Uint8Array>, limits: BodyLimits, guard: DownloadGuard): Promise<StreamedBody> {
  await mkdir(limits.tmpDir, { recursive: true });
  const tmp = path.join(limits.tmpDir, `dl-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    const out = createWriteStream(tmp);
    const outDone = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    const hash = createHash('sha256');
    const ends = createEndsSample();
    let received = 0;
    const reader = body.getReader();
    guard.armStall();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          const why = guard.reason();
          if (why) throw why;
          throw new RefusedError('truncated', `the connection closed before the body was complete (${networkMessage(error)})`, true);
        }
        if (chunk.done) break;
        guard.armStall();
        const bytes = Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength);
        received += bytes.length;
        if (received > limits.maxBytes) {
          guard.abort(new RefusedError('too-large', `more than the cap of ${formatBytes(limits.maxBytes)}`));
          throw guard.reason()!;
        }
        hash.update(bytes);
        ends.add(bytes);
        if (!out.write(bytes)) await new Promise<void>((resolve) => out.once('drain', resolve));
      }
    } finally {
      guard.stopStall();
      reader.releaseLock();
      out.end();
      await outDone.catch(() => undefined);
    }
    if (limits.declared !== undefined && received !== limits.declared) {
      throw new RefusedError('truncated', `the body ended after ${formatBytes(received)} of ${formatBytes(limits.declared)}`, true);
    }
    if (received === 0) throw new RefusedError('truncated', 'empty body');
    return { file: tmp, sha256: hash.digest('hex'), bytes: received, head: ends.head(), tail: ends.tail() };
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
