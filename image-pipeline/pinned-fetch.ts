/**
 * The fetch of live builds: every connection it opens goes to an address the
 * host policy has just checked (`HostPolicy.connectAddresses`), so what was
 * checked is what is connected to, whatever the DNS says a moment later.
 *
 * - Host names: the socket's own `lookup` asks the policy, which resolves
 *   afresh, checks every address and hands only those to `net.connect`.
 * - Literal IP hosts (no lookup happens for them): checked before the
 *   connector runs.
 * - A refusal fails the connection with the policy's RefusedError, found by
 *   `download.ts` in the fetch error's cause chain.
 *
 * undici's own fetch with its own Agent: Node's global fetch bundles another
 * undici (7.x in Node 24) whose dispatcher handler contract the npm Agent
 * (8.x) refuses ("invalid onRequestStart method").
 */
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '@pressroom-static/content-loaders';
import { RefusedError } from './errors.ts';
import { openGuarded } from './download.ts';
import { bareHostname, createHostPolicy, type HostPolicy } from './host-policy.ts';

/** A `dns.lookup`-shaped function (`all` or not, any family hint) that answers only checked addresses. */
export function pinnedLookup(policy: Pick<HostPolicy, 'connectAddresses'>): LookupFunction {
  return (hostname, options, callback) => {
    const answer = (addresses: string[]) => {
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family === 4 || family === 6 ? addresses.filter((a) => isIP(a) === family) : addresses;
      const first = usable[0];
      if (first === undefined) callback(new RefusedError('network', `host ${hostname} has no IPv${family} address`), '', 0);
      else if (options.all)
        callback(
          null,
          usable.map((address) => ({ address, family: isIP(address) })),
        );
      else callback(null, first, isIP(first));
    };
    // Answered on a fresh tick, as dns.lookup does: the socket's callback never runs inside this promise chain.
    policy.connectAddresses(hostname).then(
      (addresses) => process.nextTick(answer, addresses),
      (error: unknown) => process.nextTick(callback, error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** A fetch whose connections are pinned to addresses `policy` accepted. */
export function createPinnedFetch(policy: Pick<HostPolicy, 'connectAddresses'>): FetchLike {
  // HTTP/1.1 only, as Node's own fetch speaks (undici 8 would offer HTTP/2 to https hosts).
  const connect = buildConnector({ lookup: pinnedLookup(policy), allowH2: false });
  const agent = new Agent({
    allowH2: false,
    connect(options, callback) {
      // A literal address (IPv6 with or without brackets) makes no lookup, so it is checked here.
      if (isIP(bareHostname(options.hostname)) === 0) return connect(options, callback);
      const connectChecked = () => {
        try {
          connect(options, callback);
        } catch (error) {
          callback(error as Error, null);
        }
      };
      policy.connectAddresses(options.hostname).then(
        () => process.nextTick(connectChecked),
        (error: unknown) => process.nextTick(callback, error as Error, null),
      );
    },
  });
  return (input, init) =>
    undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: agent }) as unknown as Promise<Response>;
}

/**
 * Opens media URLs under the host policy outside a build (snapshot recording): every hop checked,
 * every connection pinned to checked addresses, no https→http downgrade; resolves with the final answer.
 */
export function createGuardedOpener(options: {
  apiUrl: string;
  imageHosts?: readonly string[];
}): (url: string, signal?: AbortSignal) => Promise<Response> {
  const policy = createHostPolicy(options);
  const fetch = createPinnedFetch(policy);
  return async (url, signal) => (await openGuarded(url, { fetch, policy, signal: signal ?? new AbortController().signal })).response;
}
