/**
 * Makes a built page work when opened from a folder (`file://`): every URL the
 * page uses inside the site (`/releases/`, `/_astro/site.css`, `/_media/…webp
 * 640w`, a redirect page's refresh target) becomes relative to the page's own
 * folder, and a folder URL names its `index.html`, which a browser only adds
 * by itself over HTTP. URLs that leave the site (canonical, Open Graph, links
 * out, protocol-relative `//host/…`), `mailto:`/`tel:`/`data:` URLs and bare
 * fragments are left as they are.
 *
 * The page is read with htmlparser2's tokenizer, so every quoting style
 * (`href="/x/"`, `href='/x/'`, `href=/x/`) is found, and nothing that only looks
 * like an attribute (text, comments, scripts, JSON-LD) is touched. Only the
 * values that change are rewritten, in place; every other byte stays as it was.
 *
 * A `<base href>` inside the site changes what relative URLs mean: they are
 * resolved against it, made relative to the page, and the base's `href` is
 * removed (a base pointing at another site is left alone, with every URL that
 * depends on it).
 *
 * A site served under a base path (`/press/`, PRESSROOM_SITE_URL's path) writes its URLs
 * under it (`/press/releases/`) while dist/ holds the files at its root: `siteBase` is that
 * path, and a root-absolute URL outside it leaves the site.
 */
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { mapSrcset } from '../src/lib/srcset.ts';

/** Whether a site path (`releases`, `123-slug`) is a folder of the built site. */
export type IsFolder = (sitePath: string) => boolean;

/** Attributes holding one URL, on any element. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'poster', 'action', 'formaction', 'data', 'cite', 'xlink:href']);
/** Attributes holding a srcset. */
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
/** `0; url=/x/`, `0;URL='/x/'`: the delay, then the URL (optionally quoted). */
const REFRESH_CONTENT = /^(\s*\d+(?:\.\d*)?\s*[;,]\s*(?:url\s*=\s*)?)(["']?)(.*?)\2(\s*)$/is;
/** Only the origin of this made-up address matters: a URL that resolves elsewhere leaves the site. */
const SITE_ORIGIN = 'http://site.invalid';

/**
 * `url` (root-absolute) as seen from the page at `page` (`releases/2/index.html`). A URL ending
 * in `/`, or naming a folder of the site (`/123-slug`, as upstream HTML links releases), gets its
 * `index.html`.
 */
export function relativeUrl(url: string, page: string, isFolder: IsFolder = () => false): string {
  if (!url.startsWith('/') || url.startsWith('//')) return url;
  const cut = url.search(/[?#]/);
  const pathPart = cut < 0 ? url : url.slice(0, cut);
  const rest = cut < 0 ? '' : url.slice(cut);
  const bare = pathPart.slice(1);
  const target = pathPart.endsWith('/') ? `${bare}index.html` : bare !== '' && isFolder(decodeOr(bare)) ? `${bare}/index.html` : bare;
  const relative = path.posix.relative(path.posix.dirname(page), target);
  return `${relative === '' ? path.posix.basename(target) : relative}${rest}`;
}

/** One attribute as the tokenizer found it: `html.slice(start, end)` is `name="value"` (any quoting). */
interface FoundAttribute {
  name: string;
  value: string;
  quote: string | null | undefined;
  start: number;
  end: number;
}

interface FoundTag {
  name: string;
  attributes: FoundAttribute[];
}

/** Every start tag of `html` with its attributes and where each one is. */
function readTags(html: string): FoundTag[] {
  const tags: FoundTag[] = [];
  let attributes: FoundAttribute[] = [];
  const parser: Parser = new Parser({
    onopentagname() {
      attributes = [];
    },
    onattribute(name, value, quote) {
      attributes.push({ name, value, quote, start: parser.startIndex, end: parser.endIndex });
    },
    onopentag(name, _attribs, isImplied) {
      if (!isImplied) tags.push({ name, attributes });
      attributes = [];
    },
  });
  parser.end(html);
  return tags;
}

/** Where relative URLs of the page point: the page itself, or its `<base href>`. */
type Base = { kind: 'site'; path: string } | { kind: 'elsewhere' };

const ASCII_SPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/** The site path (`/releases/2/`, with query and fragment) that `url` names when resolved against `basePath`; null when it leaves the site. */
function sitePathOf(url: string, basePath: string): string | null {
  const trimmed = url.replace(ASCII_SPACE, '');
  if (/^[a-z][a-z\d+.-]*:/i.test(trimmed)) return null;
  let resolved: URL;
  try {
    resolved = new URL(trimmed, `${SITE_ORIGIN}${basePath}`);
  } catch {
    return null;
  }
  if (resolved.origin !== SITE_ORIGIN) return null;
  // The written text, not the URL parser's (percent-encoded) form: the same bytes as before for the site's own links.
  if (trimmed.startsWith('/')) return trimmed;
  const cut = trimmed.search(/[?#]/);
  const pathPart = cut < 0 ? trimmed : trimmed.slice(0, cut);
  const rest = cut < 0 ? '' : trimmed.slice(cut);
  const baseCut = basePath.search(/[?#]/);
  const baseFile = baseCut < 0 ? basePath : basePath.slice(0, baseCut);
  if (pathPart === '') return `${baseFile}${rest}`;
  const folder = baseFile.endsWith('/') ? baseFile : `${path.posix.dirname(baseFile)}/`;
  let joined = path.posix.normalize(`${folder}${pathPart}`);
  if (/(^|\/)\.\.?$/.test(pathPart) && !joined.endsWith('/')) joined += '/';
  return `${joined}${rest}`;
}

/** The page's `<base>`, if one with an `href` comes first; its href resolved against the page. */
function baseOf(tags: readonly FoundTag[], pagePath: string): { base: Base; attribute: FoundAttribute } | undefined {
  for (const tag of tags) {
    if (tag.name !== 'base') continue;
    const attribute = tag.attributes.find((a) => a.name === 'href');
    if (!attribute) continue;
    const sitePath = sitePathOf(attribute.value, pagePath);
    return { base: sitePath === null ? { kind: 'elsewhere' } : { kind: 'site', path: sitePath }, attribute };
  }
  return undefined;
}

/** `value` written back as an attribute value in the quotes it had (double quotes if it had none). */
function quoted(value: string, quote: string | null | undefined): string {
  const amp = value.replace(/&/g, '&amp;');
  return quote === "'" ? `'${amp.replace(/'/g, '&#39;')}'` : `"${amp.replace(/"/g, '&quot;')}"`;
}

/** `/press/releases/` → `/releases/` for the base `/press/`; null for a path outside the base. */
function withoutSiteBase(sitePath: string, siteBase: string): string | null {
  if (siteBase === '/') return sitePath;
  if (sitePath.startsWith(siteBase)) return `/${sitePath.slice(siteBase.length)}`;
  const bare = siteBase.slice(0, -1);
  return sitePath === bare || sitePath.startsWith(`${bare}?`) || sitePath.startsWith(`${bare}#`) ? `/${sitePath.slice(bare.length)}` : null;
}

/**
 * The page's HTML with every URL inside the site made relative to `page` (its path inside the
 * built folder); `siteBase` is the base path the site's URLs are written under (`/` or `/press/`).
 */
export function relativeLinks(html: string, page: string, isFolder: IsFolder = () => false, siteBase = '/'): string {
  const tags = readTags(html);
  const pagePath = `${siteBase}${page}`;
  const found = baseOf(tags, pagePath);
  if (found?.base.kind === 'elsewhere') return html;
  const basePath = found?.base.path ?? pagePath;
  const hasBase = found !== undefined;

  const rewrite = (url: string): string => {
    const trimmed = url.replace(ASCII_SPACE, '');
    // Without a <base>, '', '#x' and '?q' already mean this page, from a folder as on a server.
    if (!hasBase && (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('?'))) return url;
    const resolved = sitePathOf(trimmed, basePath);
    const sitePath = resolved === null ? null : withoutSiteBase(resolved, siteBase);
    return sitePath === null ? url : relativeUrl(sitePath, page, isFolder);
  };

  const edits: Array<{ start: number; end: number; text: string }> = [];
  const replaceValue = (attribute: FoundAttribute, value: string) => {
    if (value === attribute.value) return;
    const raw = html.slice(attribute.start, attribute.end);
    // `name`, `=` and the white space around it as written; only the value changes.
    const head = /^[^=]*=\s*/.exec(raw)![0];
    edits.push({ start: attribute.start, end: attribute.end, text: `${head}${quoted(value, attribute.quote)}` });
  };

  for (const tag of tags) {
    const isRefresh =
      tag.name === 'meta' && tag.attributes.some((a) => a.name === 'http-equiv' && a.value.trim().toLowerCase() === 'refresh');
    for (const attribute of tag.attributes) {
      if (attribute.quote === undefined) continue; // no value
      if (found && attribute === found.attribute) {
        // Every URL now points from the page itself: the base would misdirect them.
        const from = /\s/.test(html[attribute.start - 1] ?? '') ? attribute.start - 1 : attribute.start;
        edits.push({ start: from, end: attribute.end, text: '' });
      } else if (URL_ATTRIBUTES.has(attribute.name) && tag.name !== 'base') {
        replaceValue(attribute, rewrite(attribute.value));
      } else if (SRCSET_ATTRIBUTES.has(attribute.name)) {
        replaceValue(attribute, mapSrcset(attribute.value, rewrite));
      } else if (isRefresh && attribute.name === 'content') {
        const parts = REFRESH_CONTENT.exec(attribute.value);
        if (parts) replaceValue(attribute, `${parts[1]}${parts[2]}${rewrite(parts[3]!)}${parts[2]}${parts[4]}`);
      }
    }
  }

  let out = '';
  let at = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    out += html.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + html.slice(at);
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
