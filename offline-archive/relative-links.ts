/**
 * Makes a built page work when opened from a folder (`file://`): every
 * root-absolute URL the page uses (`/releases/`, `/_astro/site.css`,
 * `/_media/…webp 640w`, a redirect page's refresh target) becomes relative to
 * the page's own folder, and a folder URL names its `index.html`, which a
 * browser only adds by itself over HTTP. Absolute URLs (canonical, Open Graph,
 * links out), fragments and `mailto:`/`tel:` links are left as they are.
 *
 * Astro and the sanitizer write every attribute value in double quotes and
 * escape `"` in text as `&quot;`, so the attributes are found without a full
 * parse and the patterns cannot match inside text or JSON-LD.
 */
import path from 'node:path';

const URL_ATTRIBUTE = /(\s(?:href|src|poster|action|data))="(\/(?!\/)[^"]*)"/g;
const SRCSET_ATTRIBUTE = /(\s(?:srcset|imagesrcset))="([^"]*)"/g;
const REFRESH = /(<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=)(\/(?!\/)[^"]*)"/gi;

/** `url` (root-absolute) as seen from the page at `page` (`releases/2/index.html`). */
export function relativeUrl(url: string, page: string): string {
  if (!url.startsWith('/') || url.startsWith('//')) return url;
  const cut = url.search(/[?#]/);
  const pathPart = cut < 0 ? url : url.slice(0, cut);
  const rest = cut < 0 ? '' : url.slice(cut);
  const target = (pathPart.endsWith('/') ? `${pathPart}index.html` : pathPart).slice(1);
  const relative = path.posix.relative(path.posix.dirname(page), target);
  return `${relative === '' ? path.posix.basename(target) : relative}${rest}`;
}

/** The page's HTML with every root-absolute URL made relative to `page` (its path inside the site). */
export function relativeLinks(html: string, page: string): string {
  return html
    .replace(URL_ATTRIBUTE, (_m, attr: string, url: string) => `${attr}="${relativeUrl(url, page)}"`)
    .replace(REFRESH, (_m, head: string, url: string) => `${head}${relativeUrl(url, page)}"`)
    .replace(SRCSET_ATTRIBUTE, (_m, attr: string, list: string) => {
      const candidates = list.split(',').map((candidate) => {
        const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
        return [relativeUrl(url, page), ...descriptor].join(' ');
      });
      return `${attr}="${candidates.join(', ')}"`;
    });
}
