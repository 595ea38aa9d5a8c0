/**
 * WebSub publishing (W3C WebSub; the PubSubHubbub 0.4 publish ping every public
 * hub takes): one POST to the hub per changed feed, form-encoded
 * `hub.mode=publish&hub.url=<feed URL>`; the hub then fetches the feed and
 * pushes it to its subscribers. Any 2xx (usually 204) is accepted. A hub that
 * cannot be reached is not asked again for the other feeds of this build.
 */
import pLimit from 'p-limit';
import { failureOf, postWithin, type Failure } from './post.ts';

export interface WebSubResult {
  /** Feeds the hub accepted. */
  accepted: number;
  /** One per feed not announced, in the order of `topics`. */
  failures: Failure[];
}

/** The body of one publish ping. */
export function publishPing(topic: string): URLSearchParams {
  return new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': topic });
}

export async function announceToHub(hub: string, topics: string[], { timeoutMs }: { timeoutMs: number }): Promise<WebSubResult> {
  const limit = pLimit(4);
  let unreachable: Failure | undefined;
  const outcomes = await Promise.all(
    topics.map((topic) =>
      limit(async (): Promise<Failure | undefined> => {
        if (unreachable) return { ...unreachable, subject: topic };
        const outcome = await postWithin(hub, { body: publishPing(topic), timeoutMs })
          .then((status) => (status >= 200 && status < 300 ? undefined : failureOf(topic, `HTTP ${status}`)))
          .catch((error: unknown) => {
            unreachable = failureOf(topic, error instanceof Error ? error.message : String(error));
            return unreachable;
          });
        return outcome;
      }),
    ),
  );
  const failures = outcomes.filter((failure): failure is Failure => failure !== undefined);
  return { accepted: topics.length - failures.length, failures };
}
