/**
 * Makes a built page work when opened from a folder (`file://`): every
 * root-absolute URL the page uses (`/releases/`, `/_astro/site.css`,
 * `/_media/…webp 640w`, a redirect page's refresh target) becomes relative to
 * the page's own folder, and a folder URL names its `index.html`, which a
 * browser only adds by itself over HTTP. Absolute URLs (canonical, Open Graph,
 * links out), fragments and `mailto:`/`tel:`/`data:` URLs are left as they are.
 *
 * Astro and the sanitizer write every attribute value in double quotes and
 * escape `"` in text as `&quot;`, so the attributes are found without a full
 * parse and the patterns cannot match inside text or JSON-LD.
 */
import path from 'node:path';

/** Whether a site path (`releases`, `123-slug`) is a folder of the built site. */
export type IsFolder = (sitePath: string) => boolean;

const URL_ATTRIBUTE = /(\s(?:href|src|poster|action|data|cite|xlink:href))="(\/(?!\/)[^"]*)"/g;
const SRCSET_ATTRIBUTE = /(\s(?:srcset|imagesrcset))="([^"]*)"/g;
const REFRESH = /(<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=)(\/(?!\/)[^"]*)"/gi;

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

/** The page's HTML with every root-absolute URL made relative to `page` (its path inside the site). */
export function relativeLinks(html: string, page: string, isFolder: IsFolder = () => false): string {
  const rewrite = (url: string) => relativeUrl(url, page, isFolder);
  return html
    .replace(URL_ATTRIBUTE, (_m, attr: string, url: string) => `${attr}="${rewrite(url)}"`)
    .replace(REFRESH, (_m, head: string, url: string) => `${head}${rewrite(url)}"`)
    .replace(SRCSET_ATTRIBUTE, (_m, attr: string, list: string) => `${attr}="${srcsetCandidates(list).map(([url, descriptor]) => `${rewrite(url)}${descriptor}`).join(', ')}"`);
}

/**
 * A srcset as [URL, descriptors] pairs, split the way browsers do: a URL runs to the next
 * whitespace (a comma inside it, as in a `data:` URL, stays), its descriptors to the next comma.
 */
export function srcsetCandidates(list: string): Array<[string, string]> {
  const candidates: Array<[string, string]> = [];
  let i = 0;
  while (i < list.length) {
    while (i < list.length && /[\s,]/.test(list[i]!)) i++;
    if (i >= list.length) break;
    let end = i;
    while (end < list.length && !/\s/.test(list[end]!)) end++;
    let url = list.slice(i, end);
    i = end;
    let descriptor = '';
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else {
      const comma = list.indexOf(',', i);
      const stop = comma < 0 ? list.length : comma;
      descriptor = list.slice(i, stop).trimEnd();
      i = stop + 1;
    }
    candidates.push([url, descriptor.trim() === '' ? '' : ` ${descriptor.trim()}`]);
  }
  return candidates;
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
