/**
 * One notification request: a POST with a time limit, answered by its status
 * alone. The answer's body is never read into a message: an endpoint may echo
 * what it was sent (the IndexNow key).
 */
export interface Failure {
  /** What was not announced: a feed URL, or a batch of pages. */
  subject: string;
  /** Why, in a few words: `HTTP 503`, `timed out after 10 s`, `connect ECONNREFUSED 127.0.0.1:9`. */
  reason: string;
}

export const failureOf = (subject: string, reason: string): Failure => ({ subject, reason });

/** POSTs `body` (form-encoded for URLSearchParams, else JSON) and resolves to the status; rejects with a short reason. */
export async function postWithin(url: string, { body, timeoutMs }: { body: URLSearchParams | object; timeoutMs: number }): Promise<number> {
  const form = body instanceof URLSearchParams;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json; charset=utf-8',
        'user-agent': 'pressroom-static',
      },
      body: form ? body.toString() : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: Error };
    if (name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs / 1000} s`, { cause: error });
    throw new Error(cause?.message ?? message, { cause: error });
  }
  // The status is the answer; the body is let go unread.
  await response.body?.cancel();
  return response.status;
}
