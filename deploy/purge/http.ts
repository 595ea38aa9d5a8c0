/**
 * One purge API call: JSON in and out, a time limit, and a few retries on 429
 * and 5xx (waiting the server's Retry-After, at most 30 s). Errors name the
 * call's kind and status, never its headers (they carry the API token).
 */
export interface PurgeCall {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  /** What the call does, for the error line: `Cloudflare purge of 30 URLs`. */
  what: string;
}

const ATTEMPTS = 4;

export async function callPurgeApi(call: PurgeCall, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(call.url, {
        method: call.method,
        headers: { accept: 'application/json', ...(call.body ? { 'content-type': 'application/json' } : {}), ...call.headers },
        body: call.body ? JSON.stringify(call.body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if (attempt < ATTEMPTS) {
        await sleep(500 * 2 ** attempt);
        continue;
      }
      const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new Error(`${call.what} failed: ${reason}`, { cause: error });
    }
    const text = await response.text();
    if ((response.status === 429 || response.status >= 500) && attempt < ATTEMPTS) {
      const after = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 30) * 1000 : 500 * 2 ** attempt);
      continue;
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) throw new Error(`${call.what} failed: HTTP ${response.status}${apiMessage(json)}`);
    return json;
  }
}

/** The first error message of a Cloudflare (`errors[].message`) or Fastly (`msg`, `detail`) answer. */
export function apiMessage(json: unknown): string {
  const value = json as { errors?: { code?: number; message?: string }[]; msg?: string; detail?: string } | undefined;
  const first = value?.errors?.[0];
  if (first?.message) return ` (${first.code ? `${first.code} ` : ''}${first.message})`;
  if (value?.msg) return ` (${value.msg}${value.detail ? `: ${value.detail}` : ''})`;
  return '';
}
