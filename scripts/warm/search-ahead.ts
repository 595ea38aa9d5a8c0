/**
 * The search bundles a warm change indexes again, indexed while it renders the rest. Pagefind works
 * in a process of its own, and at L the one bundle a retitle changes took it 1.8-2.7 s after the
 * render, while the second core sat idle during the render. So the routes render grouped by the
 * live site's bundle their page is in (pagefind/pages.json), the searchable ones first, the bundles
 * of pages whose own item changed first of all; once a
 * group is written and one of its pages reads otherwise for Pagefind than the live page did, that
 * bundle is indexed at once into a folder beside the staging one, from the staging folder's pages.
 *
 * The index step (`buildSearchIndex`, handed `reuse`) takes such a bundle only when its input (its
 * language, its pages and what Pagefind reads of each: search.ts `bundleInput`) is the one the
 * bundle was indexed from, so nothing is guessed: a change that adds or removes pages indexes its
 * bundles there, as before. A change with a new or removed page indexes nothing ahead (its
 * bundles' pages move: the work would be done twice).
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { bundleInput, closeSearchIndexer, indexBundle, type ReuseBundle } from '../../src/integrations/search.ts';
import type { BundleMembership } from '../../src/search/bundle-membership.ts';
import { fileOfSitePath, sitePathOf } from '../../src/search/documents.ts';
import { PAGEFIND_MANIFEST, type PagefindManifest, type PagefindMembership } from '../../src/search/pagefind-bundles.ts';
import { keepWrittenPage, keptPagefindInput } from '../../src/search/searchable-pages.ts';
import { PAGEFIND_DIR } from '../../src/search/vocabulary.ts';
import { removeFolder } from '../../src/output/staged-output.ts';

export interface SearchAhead {
  /** The routes to render, in the order to render them. */
  order: readonly string[];
  /** Called once a route's file is written into the staging folder. */
  written(file: string, body: Buffer): void;
  /** For `buildSearchIndex`: a bundle indexed ahead from the same input, moved into place. */
  reuse: ReuseBundle;
  /** How many bundles the index step took from here. */
  taken(): number;
  /** Waits for every index begun here to end (the bundles are then in `aside`, or failed). */
  indexed(): Promise<void>;
  /** Waits for every index begun here to end, stops Pagefind's service and removes their folder. */
  close(): Promise<void>;
}

interface Group {
  bundle: BundleMembership;
  /** Its routes this change renders. */
  files: string[];
  /** Of them, those still to be written. */
  left: number;
  /** Whether one of its pages reads otherwise for Pagefind than the live page did. */
  changed: boolean;
}

interface Begun {
  input: string;
  dir: string;
  done: Promise<void>;
}

/**
 * `membership`: the live site's (partial-build.ts `readSearchMembership`); `render`: the routes the
 * plan renders; `own`: those of them whose own item changed (their props from getStaticPaths: a
 * release's page, not the pages that list it), whose bundles are the likely ones to index again and
 * render first; `fresh`: whether any route is new or removed. `aside` is a folder of this run's own,
 * removed by `close`.
 */
export async function searchAhead(options: {
  live: string;
  membership: PagefindMembership | undefined;
  staging: string;
  aside: string;
  render: readonly string[];
  own: ReadonlySet<string>;
  fresh: boolean;
}): Promise<SearchAhead> {
  const { staging, aside, render } = options;
  const nothing: SearchAhead = {
    order: render,
    written: () => {},
    reuse: async () => false,
    taken: () => 0,
    indexed: async () => {},
    close: async () => {},
  };
  const bundles = options.fresh || !options.membership ? undefined : await liveBundles(options.live, options.membership);
  if (!bundles) return nothing;

  const groups = bundles.map((bundle): Group => ({ bundle, files: [], left: 0, changed: false }));
  const groupOfUrl = new Map(groups.flatMap((group) => group.bundle.urls.map((url) => [url, group] as const)));
  const groupOfFile = new Map<string, Group>();
  const rest: string[] = [];
  for (const file of render) {
    const group = file.endsWith('.html') ? groupOfUrl.get(sitePathOf(file)) : undefined;
    if (!group) rest.push(file);
    else {
      group.files.push(file);
      group.left++;
      groupOfFile.set(file, group);
    }
  }

  const begun = new Map<string, Begun>();
  let taken = 0;
  const begin = ({ bundle }: Group): void => {
    // The readings are of the very files the index reads: a written route's file is written once ('wx'),
    // the others are the live site's, linked and never written.
    const inputOf = new Map<string, string>();
    for (const url of bundle.urls) {
      const input = keptPagefindInput(fileOfSitePath(url));
      // A page without a kept reading (the live site's index was made by another process): not known, left to the index step.
      if (typeof input !== 'string') return;
      inputOf.set(url, input);
    }
    const dir = path.join(aside, bundle.dir);
    const done = indexBundle(staging, bundle, fileOfSitePath, dir);
    done.catch(() => undefined); // the index step awaits it, or indexes the bundle itself
    begun.set(bundle.dir, { input: bundleInput(bundle, (url) => inputOf.get(url)!), dir, done });
  };

  const indexed = async (): Promise<void> => void (await Promise.allSettled([...begun.values()].map((ahead) => ahead.done)));
  const rendered = groups.filter((group) => group.files.length > 0);
  const holdsOwn = (group: Group) => group.files.some((file) => options.own.has(file));
  return {
    order: [...rendered.filter(holdsOwn), ...rendered.filter((group) => !holdsOwn(group))].flatMap((group) => group.files).concat(rest),
    written(file, body) {
      const group = groupOfFile.get(file);
      if (!group) return;
      const before = keptPagefindInput(file);
      const now = keepWrittenPage(staging, file, body.toString('utf8'));
      if (now !== before) group.changed = true;
      if (--group.left === 0 && group.changed) begin(group);
    },
    async reuse(bundle, outputDir) {
      const ahead = begun.get(bundle.dir);
      if (!ahead || ahead.input !== bundle.input) return false;
      try {
        await ahead.done;
      } catch {
        return false;
      }
      await mkdir(path.dirname(outputDir), { recursive: true });
      await rename(ahead.dir, outputDir);
      taken++;
      return true;
    },
    taken: () => taken,
    indexed,
    async close() {
      await indexed();
      // Begun before a render that failed, no index step closed the service after it.
      if (begun.size > 0) await closeSearchIndexer().catch(() => undefined);
      await removeFolder(aside);
    },
  };
}

/** The live site's search bundles and their pages, as its last index wrote them; undefined when it has none. */
async function liveBundles(live: string, membership: PagefindMembership): Promise<BundleMembership[] | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(live, PAGEFIND_DIR, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
    return manifest.bundles.map(({ dir, language }) => ({ dir, language, urls: membership[dir]?.pages ?? [] }));
  } catch {
    return undefined;
  }
}
