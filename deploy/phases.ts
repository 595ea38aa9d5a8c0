/**
 * The order a deploy makes files live in, so that at every moment the bucket
 * serves a coherent site: what a page names is there before the page, and
 * what names pages (feeds, sitemaps, robots.txt, llms.txt) comes after them.
 * Each phase finishes before the next starts; deletions come last of all.
 */
import { isContentHashed } from './headers.ts';

export const UPLOAD_PHASES = ['hashed assets', 'assets', 'pages', 'feeds and indexes'] as const;
export type UploadPhase = (typeof UPLOAD_PHASES)[number];

/** Files that list the site's pages for machines: feeds, sitemaps, robots.txt and llms*.txt. */
function namesPages(file: string): boolean {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (file === 'robots.txt' || /^llms(?:-[\w-]+)?\.txt$/.test(file)) return true;
  return name.endsWith('.xml') || name === 'feed.json';
}

export function phaseOf(file: string): UploadPhase {
  if (isContentHashed(file)) return 'hashed assets';
  if (file.endsWith('.html') || file.endsWith('.md')) return 'pages';
  if (namesPages(file)) return 'feeds and indexes';
  return 'assets';
}

/** The files in upload order: one list per phase (empty phases left out), each in path order. */
export function inPhases(files: Iterable<string>): { phase: UploadPhase; files: string[] }[] {
  const byPhase = new Map<UploadPhase, string[]>(UPLOAD_PHASES.map((phase) => [phase, []]));
  for (const file of files) byPhase.get(phaseOf(file))!.push(file);
  return UPLOAD_PHASES.map((phase) => ({ phase, files: byPhase.get(phase)!.sort() })).filter(({ files }) => files.length > 0);
}
