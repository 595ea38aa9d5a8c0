/**
 * IndexNow (indexnow.org): the changed pages' URLs POSTed as JSON
 * `{host, key, keyLocation, urlList}` to one endpoint, which shares them with
 * every participating search engine; at most 10,000 URLs per request. The
 * engine checks the key against the key file the site serves
 * (src/integrations/indexnow-key.ts). 200 and 202 mean accepted; anything else
 * is a failure named by its status and what the protocol says it means.
 */
import { indexNowKeyFile } from '../src/integrations/indexnow-key.ts';
import { failureOf, postWithin, type Failure } from './post.ts';

/** The protocol's limit on `urlList`. */
export const INDEXNOW_BATCH = 10_000;

export interface IndexNowSubmission {
  host: string;
  key: string;
  keyLocation: string;
  urlList: string[];
}

export interface IndexNowResult {
  /** URLs in the submissions the endpoint accepted. */
  accepted: number;
  failures: Failure[];
}

/** What the protocol's documented statuses mean, for the warning line. */
const MEANING: Record<number, string> = {
  400: 'bad request',
  403: 'the key was not valid: is the key file published at the site URL?',
  422: 'the URLs do not belong to the host, or the key does not match the key file',
  429: 'too many requests: submitting again later is fine',
};

/** The submissions of `urls` (absolute, on `siteUrl`), in batches of at most `batch`. */
export function indexNowSubmissions(siteUrl: string, key: string, urls: string[], batch = INDEXNOW_BATCH): IndexNowSubmission[] {
  const site = new URL(siteUrl.replace(/\/?$/, '/'));
  const submissions: IndexNowSubmission[] = [];
  for (let start = 0; start < urls.length; start += batch) {
    submissions.push({
      host: site.host,
      key,
      keyLocation: new URL(indexNowKeyFile(key), site).href,
      urlList: urls.slice(start, start + batch),
    });
  }
  return submissions;
}

export async function submitToIndexNow(
  endpoint: string,
  submissions: IndexNowSubmission[],
  { timeoutMs }: { timeoutMs: number },
): Promise<IndexNowResult> {
  let accepted = 0;
  const failures: Failure[] = [];
  for (const [n, submission] of submissions.entries()) {
    const subject = submissions.length === 1 ? `${submission.urlList.length} URLs` : `batch ${n + 1} (${submission.urlList.length} URLs)`;
    try {
      const status = await postWithin(endpoint, { body: submission, timeoutMs });
      if (status === 200 || status === 202) accepted += submission.urlList.length;
      else failures.push(failureOf(subject, `HTTP ${status}${MEANING[status] ? ` (${MEANING[status]})` : ''}`));
    } catch (error) {
      failures.push(failureOf(subject, error instanceof Error ? error.message : String(error)));
      // An endpoint that cannot be reached is not asked again for the other batches.
      for (const rest of submissions.slice(n + 1)) failures.push(failureOf(`${rest.urlList.length} more URLs`, 'not sent'));
      break;
    }
  }
  return { accepted, failures };
}
