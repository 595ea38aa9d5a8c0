/**
 * Local servers on 127.0.0.1:0 that speak the notification protocols and
 * record what they were sent: a WebSub hub (publish pings, W3C WebSub /
 * PubSubHubbub 0.4) and an IndexNow endpoint (indexnow.org). Each checks the
 * request the way the real service does and answers as it documents.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  contentType: string | undefined;
  body: string;
}

export interface ProtocolServer<T> {
  url: string;
  /** Requests that followed the protocol, parsed. */
  received: T[];
  /** Requests that did not (what was wrong), answered 400. */
  refused: string[];
  /** Every request as sent. */
  raw: Recorded[];
  /** The status to answer a good request with next (default: the protocol's success). */
  status: number;
  close(): Promise<void>;
}

async function serve<T>(
  path: string,
  success: number,
  parse: (request: Recorded) => T | string,
  onRequest: (parsed: T) => void = () => {},
): Promise<ProtocolServer<T>> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { contentType: req.headers['content-type'], body };
      state.raw.push(request);
      const parsed = req.method === 'POST' && req.url === path ? parse(request) : `${req.method} ${req.url}`;
      if (typeof parsed === 'string') {
        state.refused.push(parsed);
        res.writeHead(400).end(parsed);
        return;
      }
      state.received.push(parsed);
      onRequest(parsed);
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: ProtocolServer<T> = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    refused: [],
    raw: [],
    status: success,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/** A hub's publish endpoint: `hub.mode=publish` and one or more absolute `hub.url`, form-encoded; 204. */
export function startHub(onPing?: (topics: string[]) => void): Promise<ProtocolServer<string[]>> {
  return serve(
    '/hub',
    204,
    ({ contentType, body }) => {
      if (contentType !== 'application/x-www-form-urlencoded') return `content-type ${contentType}`;
      const form = new URLSearchParams(body);
      if (form.get('hub.mode') !== 'publish') return `hub.mode ${form.get('hub.mode')}`;
      const topics = form.getAll('hub.url');
      if (topics.length === 0 || !topics.every((topic) => URL.canParse(topic))) return `hub.url ${topics.join(' ')}`;
      return topics;
    },
    onPing,
  );
}

export interface Submission {
  host: string;
  key: string;
  keyLocation: string;
  urlList: string[];
}

/**
 * An IndexNow endpoint: JSON `{host, key, keyLocation, urlList}`, at most 10,000 URLs, each on
 * `host`, the key 8–128 of [a-zA-Z0-9-] and the key file on the host; 202 (accepted, key to be checked).
 */
export function startIndexNow(): Promise<ProtocolServer<Submission>> {
  return serve('/indexnow', 202, ({ contentType, body }) => {
    if (contentType !== 'application/json; charset=utf-8') return `content-type ${contentType}`;
    let json: Submission;
    try {
      json = JSON.parse(body) as Submission;
    } catch {
      return 'not JSON';
    }
    if (Object.keys(json).sort().join() !== 'host,key,keyLocation,urlList') return `fields ${Object.keys(json).join()}`;
    if (!/^[a-zA-Z0-9-]{8,128}$/.test(json.key)) return 'key';
    if (!Array.isArray(json.urlList) || json.urlList.length === 0 || json.urlList.length > 10_000) return 'urlList size';
    if (!json.urlList.every((url) => new URL(url).host === json.host)) return 'a URL off the host';
    if (new URL(json.keyLocation).host !== json.host) return 'keyLocation off the host';
    return json;
  });
}
