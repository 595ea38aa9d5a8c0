/**
 * Reads a fetch response's body as a stream, bounded: fetch has no stall bound
 * of its own, so a timer re-armed with every chunk aborts the request when no
 * bytes come for `stallTimeoutMs`, and the size cap is checked as the body
 * grows. An error body only matters for its message, so it is cut short at the
 * cap instead of failing the attempt.
 */
import { AttemptFailure } from './errors.ts';
import { failureFrom, stalled, tooLarge } from './attempt-failures.ts';
import type { BodyLimits } from './transport.ts';
import { formatBytes } from '../format-bytes.ts';

export interface StallBound {
  stallTimeoutMs: number;
  /** Aborts the request this body belongs to. */
  abort: AbortController;
}

const STALL = Symbol('stall');
const TOO_LARGE = Symbol('too-large');

export async function readBody(stream: ReadableStream<Uint8Array> | null, limits: BodyLimits, bound: StallBound): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  let cutShort = false;
  const reader = stream.getReader();
  // Refreshed with every chunk: one timer costs less than a new one per chunk.
  const stallTimer = setTimeout(() => bound.abort.abort(STALL), bound.stallTimeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      stallTimer.refresh();
      received += value.byteLength;
      limits.onBytes?.(value.byteLength);
      if (received > limits.cap) {
        if (!limits.ok) {
          cutShort = true;
          break;
        }
        bound.abort.abort(TOO_LARGE);
        throw tooLarge(`more than ${formatBytes(limits.cap)}`, limits.cap);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AttemptFailure) throw error;
    const failure = failureFrom(error, 'body', limits.failure);
    // The caller's cancellation and the attempt's deadline say more than the stall they cut short.
    if (failure.kind === 'truncated' && bound.abort.signal.reason === STALL) throw stalled(bound.stallTimeoutMs);
    throw failure;
  } finally {
    clearTimeout(stallTimer);
    if (cutShort) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}
