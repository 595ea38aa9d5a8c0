/**
 * The rules of the AI files (src/lib/llms.ts), kept free of the build's data so they can be
 * tested on their own:
 *
 * - Which press rooms get them: not one that asks not to be indexed (`noindex`), whose robots.txt
 *   says `Disallow: /` (src/lib/crawlers.ts): no llms.txt, no llms-full.txt, no Markdown twins and
 *   no `<link>` to one. Otherwise robots.txt allows everything, these files included.
 * - Budgets, so an assistant can read a file whole: llms.txt lists at most 30 releases, 20 media
 *   kits and 10 contacts in at most 32 KiB; llms-full.txt holds at most 100 releases in at most
 *   512 KiB, whole releases only, newest first, dropping the oldest until the file fits. Every
 *   release stays a link away (the archive, all releases, the feeds, which are never capped).
 * - Where a twin lives: `/<permalink>/index.md`, in its page's own folder.
 */
import { markdownTwinHref } from './paths.ts';

export const LLMS_TXT_BUDGET = { releases: 30, mediaKits: 20, contacts: 10, titleChars: 160, summaryChars: 200, bytes: 32 * 1024 } as const;
export const LLMS_FULL_BUDGET = { releases: 100, bytes: 512 * 1024 } as const;

/** Whether the press room gets AI files at all: not when it asks not to be indexed (robots.txt then disallows everything). */
export function aiFilesOffered(pressroom: { noindex: boolean }): boolean {
  return !pressroom.noindex;
}

/**
 * The largest `count` (at most `maxItems`) whose `render(count)` fits in `maxBytes` of UTF-8, and
 * that text. Rendering must grow with the count; `render(0)` is returned even when it is larger.
 */
export function fitWithinBudget(render: (count: number) => string, maxItems: number, maxBytes: number): { text: string; count: number } {
  const fits = (text: string) => Buffer.byteLength(text, 'utf8') <= maxBytes;
  const all = render(maxItems);
  if (fits(all) || maxItems === 0) return { text: all, count: maxItems };
  let low = 0; // fits, or nothing smaller exists
  let high = maxItems; // does not fit
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(render(mid))) low = mid;
    else high = mid;
  }
  return { text: render(low), count: low };
}

/**
 * Release id → its Markdown twin's path, for every release that gets one: all of them, unless the
 * press room is noindex (none), or another page already lives at that path (a release whose
 * permalink is another's plus `/index.md`): the page wins, and that release has no twin.
 */
export function twinPaths(
  pressroom: { noindex: boolean },
  releases: ReadonlyArray<{ id: number; href: string }>,
  pages: ReadonlyArray<{ href: string }>,
): Map<number, string> {
  const twins = new Map<number, string>();
  if (!aiFilesOffered(pressroom)) return twins;
  const taken = new Set([...releases, ...pages].map((p) => p.href));
  for (const release of releases) {
    const twin = markdownTwinHref(release);
    if (!taken.has(`${twin}/`)) twins.set(release.id, twin);
  }
  return twins;
}
