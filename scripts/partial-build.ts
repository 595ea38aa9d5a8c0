/**
 * A partial build (issue 31, item 2): with the FULL new data loaded, Astro renders only the routes
 * the planner (route-plan.ts) proves changed, and the new site is assembled in the staging folder
 * from them and the previous site's unchanged files, hard-linked (never written to: the live site
 * shares their inodes), minus what the plan deletes:
 *
 * 1. as the selected routes are generated (before search reads the site): the kept routes' files
 *    and the `_media/` files they asked for (a warm change links every route's ahead of its plan,
 *    while its content loads, and the plan prunes what it does not keep);
 * 2. once Astro is done (after every writer of whole-site files): any other file of the previous
 *    site this build did not write (site icons, the build record).
 *
 * Search bundles and sitemaps are made anew from the assembled site (the sitemap integration is
 * handed the kept pages: src/integrations/route-recorder.ts). What the planner cannot prove
 * renders in full, with the reason in one line (route-plan.ts). A kept page that still names a
 * removed route fails the build (StaleKeptPage): a withdrawn release is never left linked.
 */
import { closeSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PartialRendering, RouteSelection } from '../src/integrations/route-recorder.ts';
import type { UsedByRoute } from '../src/lib/route-record.ts';
import type { ReuseBundle } from '../src/integrations/search.ts';
import { PAGEFIND_MEMBERSHIP, type PagefindMembership } from '../src/search/pagefind-bundles.ts';
import { PAGEFIND_DIR } from '../src/search/vocabulary.ts';
import type { RouteRecord } from './route-record-file.ts';
import { planLine, planRoutes, type RoutePlan } from './route-plan.ts';
import { filesOf } from '../src/lib/site-files.ts';
import { linkInto, linkIntoInBackground } from './assembly/hard-links.ts';

export interface PartialBuildOptions {
  previous: RouteRecord;
  /** The site the record describes (--out), checked as built. */
  previousDir: string;
  /**
   * Its files as the check read them (the build holds the lock, so they are still those): the
   * assembly takes the ones nobody wrote from it instead of walking the folder again (2.3 s for
   * the 120,424 files of an L site under load).
   */
  previousFiles: Iterable<string>;
  code: string;
  configuration: RouteRecord['configuration'];
  /** Where the site is served: a kept page naming a removed route's address fails the build. */
  site: SiteAddress;
  log: (line: string) => void;
}

type Partial = Extract<RoutePlan, { render: string[] }>;

/**
 * A page kept from the previous site still names a route this build removed (a withdrawn or deleted
 * release): the record missed something that page shows. The build fails closed rather than publish it.
 */
export class StaleKeptPage extends Error {
  override name = 'StaleKeptPage';
}

/** Kept files a removed route's address could be written in. */
const TEXT_ROUTE = /(?:\.html|\.xml|\.json|\.txt|\.md|\.ics|\.vcf)$/;

/** Where the site is served: pages write addresses as `<base><path>`, feeds and sitemaps as `<origin><base><path>`. */
export interface SiteAddress {
  /** PRESSROOM_SITE_URL's origin, e.g. `https://press.example.com`. */
  origin: string;
  /** Its path, e.g. `/` or `/press/`. */
  base: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The addresses of removed routes as pages write them (`<base><path>`, also percent-encoded). */
function removedAddresses(removed: readonly string[], { base }: SiteAddress): string[] {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const addresses = removed
    .filter((route) => route !== 'index.html')
    .map((route) => `${prefix}${route.endsWith('/index.html') ? route.slice(0, -'index.html'.length) : route}`)
    .flatMap((address) => [address, encodeURI(address)]);
  return [...new Set(addresses)];
}

/** A pattern that finds one of `addresses` where a page writes a link to it, not inside a longer address. */
function addressPattern(addresses: readonly string[], { origin }: SiteAddress): RegExp {
  const alternatives = addresses.map(escapeRegExp).join('|');
  return new RegExp(`(?:^|["'(=\\s>]|${escapeRegExp(origin)})(${alternatives})`);
}

/**
 * The first kept route file naming a removed route's address, as `<file> names <address>`; undefined
 * when none does. Every kept text file is read (1.1 GB at L): its bytes are searched for the bare
 * addresses first, and only a file holding one is decoded and matched exactly. At L beside a 1.9 GB
 * heap (a warm renderer's): 0.9–1.0 s, against 14–27 s for a new string per file.
 */
export async function staleKeptRoute(
  siteDir: string,
  kept: Iterable<string>,
  removed: readonly string[],
  site: SiteAddress,
): Promise<string | undefined> {
  const addresses = removedAddresses(removed, site);
  if (addresses.length === 0) return undefined;
  // A file holding an address holds every address it contains (a removed page's folder is in its twin's address): one search covers both.
  const needles = addresses
    .filter((address) => !addresses.some((other) => other !== address && address.includes(other)))
    .map((address) => Buffer.from(address));
  const pattern = addressPattern(addresses, site);
  const root = path.resolve(siteDir);
  const reader = fileReader();
  for (const file of kept) {
    if (!TEXT_ROUTE.test(file)) continue;
    const bytes = reader(`${root}/${file}`);
    if (!needles.some((needle) => bytes.includes(needle))) continue;
    const named = pattern.exec(bytes.toString('utf8'));
    if (named) return `${file} names ${named[1]}`;
  }
  return undefined;
}

/**
 * Reads whole files into one buffer it reuses (valid until the next read): a warm renderer's heap is
 * about 2 GB at L, and 1.1 GB of new buffers, one per file, kept its garbage collector busy.
 */
function fileReader(): (file: string) => Buffer {
  let buffer = Buffer.allocUnsafe(1 << 20);
  return (file) => {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size > buffer.length) buffer = Buffer.allocUnsafe(Math.max(size, buffer.length * 2));
      let read = 0;
      for (let n = -1; read < size && n !== 0; read += n) n = readSync(fd, buffer, read, size - read, null);
      return buffer.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  };
}

/** Whole-site outputs every build writes anew (search bundles, @astrojs/sitemap's files): never taken from the previous site. */
const isRebuiltEveryTime = (file: string): boolean => file.startsWith('pagefind/') || /^sitemap-(?:index|\d+)\.xml$/.test(file);

/**
 * Search bundles taken from the previous site where Pagefind would be given what it was given then:
 * the same language, pages and, of each page, the same parts (src/search/documents.ts
 * `pagefindInput`), as the previous site's membership file records them. A bundle is its own
 * Pagefind index of those pages alone, so it would come out byte for byte the same; linking it spares
 * indexing it (a page rendered again whose searchable parts did not change — a release that lists a
 * retitled one among its related releases — no longer costs its bundle). Only for a site rendered
 * by the same code (the planner checks it), whose Pagefind wrote those bundles.
 */
export async function reuseUnchangedSearchBundles(
  previousDir: string,
  /** Its membership file, when the caller has read it already (`readSearchMembership`). */
  membership?: PagefindMembership,
): Promise<ReuseBundle> {
  const previousSearch = path.join(previousDir, PAGEFIND_DIR);
  const recorded = membership ?? (await readSearchMembership(previousDir)) ?? {};
  return async (bundle, outputDir) => {
    if (recorded[bundle.dir]?.input !== bundle.input) return false;
    const from = path.join(previousSearch, bundle.dir);
    linkInto(from, outputDir, await filesOf(from));
    return true;
  };
}

/** Which pages each search bundle of the site in `siteDir` holds, and from what input (pagefind/pages.json); undefined when it has none. */
export async function readSearchMembership(siteDir: string): Promise<PagefindMembership | undefined> {
  return readFile(path.join(siteDir, PAGEFIND_DIR, PAGEFIND_MEMBERSHIP), 'utf8')
    .then((text) => JSON.parse(text) as PagefindMembership)
    .catch(() => undefined);
}

/** The previous routes' files and the files they asked for: all but the site-wide ones (icons, sitemaps, search, the build record). */
const ownedByRecord = new WeakMap<RouteRecord, Set<string>>();
function ownedFiles(previous: RouteRecord): Set<string> {
  let files = ownedByRecord.get(previous);
  if (!files) {
    // A loop, not a flatMap of arrays: at L 1.5 million names, 0.2 s against 0.5.
    files = new Set<string>();
    for (const [route, use] of Object.entries(previous.routes)) {
      files.add(route);
      for (const file of use.files) files.add(file);
    }
    ownedByRecord.set(previous, files);
  }
  return files;
}

/**
 * Step 1 ahead of the plan, for a warm change (scripts/warm/change.ts): every file a previous route
 * owns linked into `outDir`, on a thread of its own while the content loads; the plan's `prune`
 * then takes away what the new site does not keep.
 */
export const linkOwnedFiles = (previous: RouteRecord, previousDir: string, outDir: string): Promise<void> =>
  linkIntoInBackground(previousDir, outDir, ownedFiles(previous));

export function partialBuild(options: PartialBuildOptions): PartialRendering & {
  /** The plan when this build rendered part of the routes; undefined when it rendered all. */
  plan(): Partial | undefined;
  /**
   * Step 1 when `linkOwnedFiles` linked ahead of the plan: removes the linked files the new site does
   * not keep, those the routes write again among them.
   */
  prune(outDir: string): void;
  /** Step 2 of the assembly, once Astro is done. */
  finish(outDir: string): Promise<void>;
} {
  const { previous, previousDir } = options;
  let plan: Partial | undefined;
  /** The previous routes this build renders again or removes. */
  let leaving = new Set<string>();

  const select = (selection: RouteSelection): ReadonlySet<string> | undefined => {
    const chosen: RoutePlan = planRoutes({
      previous,
      code: options.code,
      configuration: options.configuration,
      buildDay: previous.buildDay && selection.buildDay,
      routes: selection.routes,
      digest: selection.digest,
    });
    options.log(planLine(chosen, selection.routes.length));
    if ('full' in chosen) return undefined;
    plan = chosen;
    leaving = new Set([...chosen.render, ...chosen.remove]);
    return new Set(chosen.render);
  };

  /** Of the owned files, those the new site takes from the previous one: the routes not leaving and their files, but those the plan deletes. */
  const keptFiles = (partial: Partial): Set<string> => {
    const deleted = new Set(partial.deleteFiles);
    const kept = new Set<string>();
    for (const [route, use] of Object.entries(previous.routes)) {
      if (leaving.has(route)) continue;
      kept.add(route);
      for (const file of use.files) if (!deleted.has(file)) kept.add(file);
    }
    return kept;
  };

  return {
    select,
    async generated(outDir) {
      if (!plan) return;
      await linkIntoInBackground(previousDir, outDir, keptFiles(plan));
    },
    prune(outDir) {
      if (!plan) return;
      // Of the owned files, those not kept: the leaving routes' and the files only they asked for (routes write
      // pages and endpoints, never a `_media/` file, so no kept route owns a leaving route's file).
      for (const file of [...leaving, ...plan.deleteFiles]) rmSync(path.join(outDir, file), { force: true });
    },
    kept() {
      const kept = new Map<string, UsedByRoute>();
      for (const [route, use] of Object.entries(previous.routes)) if (!leaving.has(route)) kept.set(route, use);
      return kept;
    },
    plan: () => plan,
    async finish(outDir) {
      if (!plan) return;
      const owned = ownedFiles(previous);
      const others = [...options.previousFiles].filter((file) => !owned.has(file) && !isRebuiltEveryTime(file));
      linkInto(previousDir, outDir, others);
      const kept = Object.keys(previous.routes).filter((route) => !leaving.has(route));
      const stale = await staleKeptRoute(outDir, kept, plan.remove, options.site);
      if (stale)
        throw new StaleKeptPage(
          `partial build: the kept page ${stale}, a route this build removed (the route record missed what it shows); the record is dropped, so the next build renders in full (or run again with --force)`,
        );
    },
  };
}
