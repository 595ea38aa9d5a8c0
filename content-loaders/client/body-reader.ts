/**
 * Reads a fetch response's body as a stream, bounded: the stall timer is re-armed
 * with every chunk, and the size cap is checked as the body grows. An error
 * body only matters for its message, so it is cut short at the cap instead
 * of failing the attempt.
 */
import { AttemptFailure } from './errors.ts';
import { TOO_LARGE, failureFrom, tooLarge } from './attempt-failures.ts';
import type { BodyLimits } from './transport.ts';
import { formatBytes } from '../format-bytes.ts';

export async function readBody(stream: ReadableStream<Uint8Array> | null, limits: BodyLimits): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  let cutShort = false;
  const reader = stream.getReader();
  limits.armStall();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      limits.armStall();
      received += value.byteLength;
      limits.onBytes?.(value.byteLength);
      if (received > limits.cap) {
        if (!limits.ok) {
          cutShort = true;
          break;
        }
        limits.controller.abort(TOO_LARGE);
        throw tooLarge(`more than ${formatBytes(limits.cap)}`, limits.cap);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AttemptFailure) throw error;
    throw failureFrom(error, 'body', limits.failure);
  } finally {
    limits.disarmStall();
    if (cutShort) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}
