/**
 * `srcset` (and `imagesrcset`) read the way browsers read them: the HTML
 * standard's "parse a srcset attribute". One parser for everything that
 * touches a srcset: the feeds (URLs made absolute), the offline archive (URLs
 * made relative), the sanitizer (every candidate must be site-local) and the
 * tests that follow every URL of a page.
 *
 * - A URL runs to the next ASCII whitespace, so a comma inside it stays
 *   (`data:image/png;base64,AAAA 1x`, `/a,b.webp 2x`); commas at its end only
 *   separate candidates (`/a.webp,/b.webp` is ONE URL, as in a browser).
 * - Descriptors run to the next comma outside parentheses.
 * - Candidates whose descriptors a browser would reject are kept (with their
 *   text): a rewrite must not drop what it does not understand, and a safety
 *   check must see every URL that is there.
 *
 * Not a library: `parse-srcset` logs to the console on every odd descriptor,
 * drops such candidates and returns numbers instead of the descriptor text;
 * `srcset` understands only `w`/`x` and throws on anything else.
 */

export interface SrcsetCandidate {
  url: string;
  /** The descriptors as written, white space collapsed (`640w`, `2x`, or ''). */
  descriptors: string;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';

export function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && (isSpace(value[i]) || value[i] === ',')) i++;
    if (i >= value.length) break;
    const start = i;
    while (i < value.length && !isSpace(value[i])) i++;
    const url = value.slice(start, i);
    if (url.endsWith(',')) {
      candidates.push({ url: url.replace(/,+$/, ''), descriptors: '' });
      continue;
    }
    const descriptors: string[] = [];
    let current = '';
    let inParens = false;
    for (; i < value.length; i++) {
      const c = value[i]!;
      if (inParens) {
        current += c;
        if (c === ')') inParens = false;
      } else if (c === ',') {
        i++;
        break;
      } else if (isSpace(c)) {
        if (current !== '') descriptors.push(current);
        current = '';
      } else {
        current += c;
        if (c === '(') inParens = true;
      }
    }
    if (current !== '') descriptors.push(current);
    candidates.push({ url, descriptors: descriptors.join(' ') });
  }
  return candidates;
}

/** A srcset written back from its candidates (`url descriptors, url descriptors`). */
export function formatSrcset(candidates: readonly SrcsetCandidate[]): string {
  return candidates.map(({ url, descriptors }) => (descriptors === '' ? url : `${url} ${descriptors}`)).join(', ');
}

/** `value` with every candidate URL passed through `rewrite`; `value` itself when no URL changes. */
export function mapSrcset(value: string, rewrite: (url: string) => string): string {
  const candidates = parseSrcset(value);
  let changed = false;
  const rewritten = candidates.map((candidate) => {
    const url = rewrite(candidate.url);
    if (url !== candidate.url) changed = true;
    return { ...candidate, url };
  });
  return changed ? formatSrcset(rewritten) : value;
}
