/**
 * Where media may be downloaded from (DESIGN.md, Security rules).
 *
 * - Only `http:`/`https:` URLs without user name or password.
 * - Every address a host resolves to is checked (all of them, IPv4 and IPv6):
 *   public addresses are fine for any host; a loopback, private, link-local
 *   or otherwise non-public address is refused, unless the API itself lives
 *   there: the URL's host is the API's own host, or a host listed in
 *   `PRESSROOM_IMAGE_HOSTS` that resolves into the same kind of network as
 *   the API (a media host next to a local or intranet API). A host name that
 *   merely points at 127.0.0.1 or 169.254.169.254 is never enough.
 * - Two checks, one rule. `check` runs before each request (the first URL and
 *   every redirect hop) and gives the clear per-hop message. `connectAddresses`
 *   runs when a socket is opened (`pinned-fetch.ts`): it resolves the name
 *   afresh and hands the socket only addresses it has just checked, so a DNS
 *   answer that changes between the two (rebinding) is refused, not followed.
 *   That second check is the one that cannot be bypassed.
 * - Snapshot builds open no socket at all (the snapshot answers), so there is
 *   nothing to resolve: only the URL shape is checked there.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { RefusedError } from './errors.ts';

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

/** Resolves a host name to every address it has. */
export type LookupFn = (hostname: string) => Promise<string[]>;

const systemLookup: LookupFn = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

function blockList(entries: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [net, prefix, type] of entries) list.addSubnet(net, prefix, type);
  return list;
}

const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const LINK_LOCAL = blockList([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['fc00::', 7, 'ipv6'], // unique local
  ['fec0::', 10, 'ipv6'], // old site-local
]);
const RESERVED = blockList([
  ['0.0.0.0', 8, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved and broadcast
  ['::', 96, 'ipv6'], // unspecified and the deprecated IPv4-compatible ::a.b.c.d (::1 is matched as loopback first)
  ['100::', 64, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215): whatever IPv4 it carries, never public
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT)
  ['2001:db8::', 32, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);

/** The IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(lower);
  const pair = hex ?? sixToFour;
  if (!pair) return undefined;
  const hi = parseInt(pair[1]!, 16);
  const lo = parseInt(pair[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** What kind of network an IP address belongs to. */
export function classifyAddress(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  if (PRIVATE.check(address, type)) return 'private';
  if (RESERVED.check(address, type)) return 'reserved';
  return 'public';
}

export interface HostPolicyOptions {
  /** The API base URL: its host is always allowed, and where it lives decides which non-public addresses are. */
  apiUrl: string;
  /** `PRESSROOM_IMAGE_HOSTS`, lower-cased. */
  imageHosts?: readonly string[];
  /** false in snapshot builds: no socket is opened, nothing to resolve. */
  checkAddresses?: boolean;
  lookup?: LookupFn;
}

export interface HostPolicy {
  /** Resolves when `url` may be fetched; throws a RefusedError saying why not. */
  check(url: URL): Promise<void>;
  /**
   * The addresses a socket to `host` may connect to: resolved afresh (never a
   * cached answer), every one checked; rejects with a RefusedError. Used at
   * connect time, whatever `checkAddresses` says (it only runs when a socket opens).
   */
  connectAddresses(host: string): Promise<string[]>;
}

/** `[::1]` → `::1`; lower case. */
export function bareHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

function bareHost(url: URL): string {
  return bareHostname(url.hostname);
}

function unresolved(host: string, error: unknown, retryable: boolean): RefusedError {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new RefusedError('network', `host ${host} does not resolve (${why})`, retryable);
}

export function createHostPolicy({ apiUrl, imageHosts = [], checkAddresses = true, lookup = systemLookup }: HostPolicyOptions): HostPolicy {
  const apiHost = bareHost(new URL(apiUrl));
  const listed = new Set(imageHosts.map((h) => h.toLowerCase()));
  const resolved = new Map<string, Promise<string[]>>();

  const addressesOf = (host: string): Promise<string[]> => {
    if (isIP(host)) return Promise.resolve([host]);
    let answer = resolved.get(host);
    if (!answer) {
      answer = lookup(host);
      resolved.set(host, answer);
      answer.catch(() => resolved.delete(host));
    }
    return answer;
  };

  let apiKinds: Promise<Set<AddressKind>> | undefined;
  const apiLivesIn = (): Promise<Set<AddressKind>> =>
    (apiKinds ??= addressesOf(apiHost).then(
      (addresses) => new Set(addresses.map(classifyAddress)),
      () => new Set<AddressKind>(),
    ));

  /** Throws unless every one of `addresses` may be reached for `host` (not the API's host). */
  const admit = async (host: string, addresses: readonly string[]): Promise<void> => {
    if (addresses.length === 0) throw new RefusedError('network', `host ${host} has no address`);
    for (const address of addresses) {
      const kind = classifyAddress(address);
      if (kind === 'public') continue;
      if (listed.has(host) && kind !== 'reserved' && (await apiLivesIn()).has(kind)) continue;
      throw new RefusedError(
        'address',
        `host ${host} resolves to ${address}, a ${kind} address, and only the API's host` +
          (kind === 'reserved' ? '' : ` (or a host in PRESSROOM_IMAGE_HOSTS when the API is on a ${kind} network itself)`) +
          ' may be reached there',
      );
    }
  };

  return {
    async check(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new RefusedError('host', `${url.protocol} URLs are not downloaded (only http and https)`);
      }
      if (url.username || url.password) throw new RefusedError('host', 'URLs with a user name or password are not downloaded');
      const host = bareHost(url);
      if (host === apiHost || !checkAddresses) return;
      let addresses: string[];
      try {
        addresses = await addressesOf(host);
      } catch (error) {
        throw unresolved(host, error, false);
      }
      await admit(host, addresses);
    },

    async connectAddresses(hostname) {
      const host = bareHostname(hostname);
      let addresses: string[];
      if (isIP(host)) addresses = [host];
      else {
        try {
          addresses = await lookup(host);
        } catch (error) {
          // The check before the request resolved it a moment ago: most likely passing.
          throw unresolved(host, error, true);
        }
      }
      if (host !== apiHost) await admit(host, addresses);
      else if (addresses.length === 0) throw new RefusedError('network', `host ${host} has no address`, true);
      return addresses;
    },
  };
}
