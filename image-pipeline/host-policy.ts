/**
 * Where media may be downloaded from.
 *
 * - Only `http:`/`https:` URLs without user name or password.
 * - What kind of network an address is on comes from ipaddr.js's range table
 *   (the IANA special-purpose registries), after the address is read in any
 *   spelling (`0x7f000001`, `64:ff9b:0:0:0:0:7f00:1`, `[::ffff:127.0.0.1]`):
 *   only plain unicast is public. Forms that carry an IPv4 address and reach
 *   it (IPv4-mapped, well-known NAT64, 6to4) are what that IPv4 address is.
 * - Every address a host resolves to is checked (all of them, IPv4 and IPv6):
 *   public addresses are fine for any host; a loopback, private, link-local
 *   or otherwise non-public address is refused, unless the API itself lives
 *   there: the URL's host and port are the API's own, or a host listed in
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
import ipaddr from 'ipaddr.js';
import { RefusedError } from './errors.ts';

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

/** Resolves a host name to every address it has. */
export type LookupFn = (hostname: string) => Promise<string[]>;

const systemLookup: LookupFn = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An IP address in any textual form, and the zone id (`%eth0`) it was written with. */
export interface ParsedAddress {
  address: Address;
  zone: string | undefined;
}

/**
 * Reads an IP address in every form a resolver or a socket accepts: dotted
 * IPv4 and the inet_aton forms (`0177.0.0.1`, `0x7f000001`, `127.1`,
 * `2130706433`), IPv6 compressed or not, with brackets, an embedded dotted
 * IPv4 (`::ffff:127.0.0.1`, `64:ff9b::127.0.0.1`, `::127.0.0.1`) or a zone id.
 * undefined when `text` is not an address (a host name).
 */
export function parseAddress(text: string): ParsedAddress | undefined {
  let rest = text.replace(/^\[(.*)\]$/, '$1');
  const percent = rest.indexOf('%');
  const zone = percent < 0 ? undefined : rest.slice(percent + 1);
  if (percent >= 0) rest = rest.slice(0, percent);
  if (zone === '') return undefined;
  if (!rest.includes(':')) return zone === undefined && ipaddr.IPv4.isValid(rest) ? { address: ipaddr.IPv4.parse(rest), zone } : undefined;
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped, which it is not: the dotted tail becomes two hex groups first.
  const dotted = /^(.*:)([^:]*\.[^:]*)$/.exec(rest);
  if (dotted) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(dotted[2]!)) return undefined;
    const [a, b, c, d] = ipaddr.IPv4.parse(dotted[2]!).octets as [number, number, number, number];
    rest = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  return ipaddr.IPv6.isValid(rest) ? { address: ipaddr.IPv6.parse(rest), zone } : undefined;
}

/** The one spelling of an address that is checked and connected to (`127.0.0.1`, `::ffff:7f00:1`, `fe80::1%eth0`). */
function canonical({ address, zone }: ParsedAddress): string {
  return zone === undefined ? address.toString() : `${address.toString()}%${zone}`;
}

/**
 * ipaddr.js's ranges (its table of the IANA special-purpose registries) that
 * are not simply "reserved" here. Everything else it names (unspecified,
 * broadcast, multicast, documentation, benchmarking, Teredo, ORCHID, the 6to4
 * relay anycast 192.88.99.0/24, AS112, AMT, discard, SRv6, IPv4-translated
 * ::ffff:0:0:0/96, local-use NAT64 64:ff9b:1::/48, ...) is never public.
 */
const IPV4_KINDS: Readonly<Record<string, AddressKind>> = {
  unicast: 'public',
  loopback: 'loopback',
  linkLocal: 'link-local',
  private: 'private',
  carrierGradeNat: 'private',
};
const IPV6_KINDS: Readonly<Record<string, AddressKind>> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
};

/** Well-known NAT64 (RFC 6052): the IPv4 address in the last 32 bits is what is reached. */
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
/** The only IPv6 block IANA hands out as global unicast; what ipaddr.js calls unicast outside it (`::7f00:1`, `4000::1`) is not. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The IPv4 address in two 16-bit groups of an IPv6 one. */
const ipv4In = (parts: readonly number[], at: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([parts[at]! >> 8, parts[at]! & 255, parts[at + 1]! >> 8, parts[at + 1]! & 255]);

function kindOf(address: Address): AddressKind {
  if (address.kind() === 'ipv4') return IPV4_KINDS[address.range()] ?? 'reserved';
  const v6 = address as ipaddr.IPv6;
  const range: string = v6.range();
  // Forms that carry an IPv4 address and reach it: they are what that address is.
  if (range === 'ipv4Mapped') return kindOf(v6.toIPv4Address());
  if (range === 'rfc6052') return v6.match(WELL_KNOWN_NAT64) ? kindOf(ipv4In(v6.parts, 6)) : 'reserved';
  if (range === '6to4') return kindOf(ipv4In(v6.parts, 1));
  if (range === 'unicast') return v6.match(GLOBAL_UNICAST) ? 'public' : 'reserved';
  return IPV6_KINDS[range] ?? 'reserved';
}

/**
 * What kind of network an IP address belongs to, whatever its spelling. Not an
 * address at all: reserved. A zone id (which only scoped addresses have) makes
 * an address never public.
 */
export function classifyAddress(text: string): AddressKind {
  const parsed = parseAddress(text);
  if (!parsed) return 'reserved';
  const kind = kindOf(parsed.address);
  return kind === 'public' && parsed.zone !== undefined ? 'reserved' : kind;
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

/** The port a URL connects to, its scheme's default when it names none. */
const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

function unresolved(host: string, error: unknown, retryable: boolean): RefusedError {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new RefusedError('network', `host ${host} does not resolve (${why})`, retryable);
}

export function createHostPolicy({ apiUrl, imageHosts = [], checkAddresses = true, lookup = systemLookup }: HostPolicyOptions): HostPolicy {
  const api = new URL(apiUrl);
  const apiHost = bareHost(api);
  // The API's own origin, port included: an intranet API's host is allowed, not every service on that machine.
  const isApiOrigin = (url: URL) => url.protocol === api.protocol && bareHost(url) === apiHost && portOf(url) === portOf(api);
  const listed = new Set(imageHosts.map((h) => h.toLowerCase()));
  const resolved = new Map<string, Promise<string[]>>();

  const addressesOf = (host: string): Promise<string[]> => {
    const literal = parseAddress(host);
    if (literal) return Promise.resolve([canonical(literal)]);
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
      if (isApiOrigin(url) || !checkAddresses) return;
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
      const literal = parseAddress(host);
      let addresses: string[];
      if (literal) addresses = [canonical(literal)];
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
