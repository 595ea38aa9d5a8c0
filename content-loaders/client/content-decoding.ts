/**
 * Bodies sent with a Content-Encoding (gzip, deflate, br), decoded on the
 * thread pool and never to more than the size cap (zlib's `maxOutputLength`),
 * so a small compressed body cannot expand past what the client allows.
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';
import { tooLarge } from './attempt-failures.ts';
import { AttemptFailure, errorCode } from './errors.ts';
import { formatBytes } from '../format-bytes.ts';

type Decoder = (body: Buffer, options: ZlibOptions) => Promise<Buffer>;

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress) as Decoder,
};

/** What a request offers to accept: every coding `decodeBody` decodes. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The codings a Content-Encoding header names, in the order they were applied (`identity` is none). */
export function contentCodings(contentEncoding: string | null): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** The body as sent before the codings named by `contentEncoding` (applied in order, so undone in reverse). */
export async function decodeBody(body: Buffer, contentEncoding: string | null, maxBytes: number): Promise<Buffer> {
  let decoded = body;
  for (const coding of contentCodings(contentEncoding).reverse()) {
    const decode = DECODERS[coding];
    if (!decode) {
      throw new AttemptFailure({
        kind: 'undecodable',
        retryable: false,
        detail: `the body is in an encoding the client did not ask for (Content-Encoding: ${coding.slice(0, 40)})`,
        advice: `the API must answer in one of: ${ACCEPT_ENCODING}, or uncompressed`,
      });
    }
    try {
      decoded = await decode(decoded, { maxOutputLength: maxBytes });
    } catch (error) {
      if (errorCode(error) === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(`more than ${formatBytes(maxBytes)} once decoded`, maxBytes);
      throw new AttemptFailure({
        kind: 'undecodable',
        retryable: true,
        detail: `the ${coding} body could not be decoded (${String((error as Error).message ?? error).slice(0, 80)})`,
        advice: 'the API or a proxy sent a damaged body; retry later',
      });
    }
  }
  return decoded;
}
