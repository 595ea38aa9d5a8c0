/**
 * Upstream HTML made safe to store: what reaches a consumer's collections has
 * no scripts, styles, event handlers, frames, forms, SVG/MathML or embedded
 * objects, and links and images only with http(s) (links also mailto, tel and
 * site-relative) addresses. The structure is kept (headings, sections, tables,
 * figures, images with their upstream addresses), so a site can still apply a
 * stricter allow-list of its own as the last step before a page, and get the
 * same result as from the original.
 */
import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'div',
  'span',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'main',
  'nav',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'small',
  'mark',
  'sub',
  'sup',
  'q',
  'cite',
  'abbr',
  'time',
  'code',
  'pre',
  'kbd',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'figure',
  'figcaption',
  'img',
  'picture',
];

/** Elements dropped together with their content (never kept as text): the site's own sanitizer drops the same. */
export const DROP_WITH_CONTENT: readonly string[] = [
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'title',
  'head',
  'button',
  'canvas',
  'audio',
  'video',
];

/**
 * How deep elements may nest in stored HTML; deeper ones lose their tags and keep their text. Real
 * bodies nest a dozen levels; 100,000 would overflow every recursive reader after the sanitizer
 * (HTML to Markdown, feed serializers) and stop the build for one item.
 */
export const MAX_HTML_DEPTH = 64;

const OPTIONS: sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'srcset', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    time: ['datetime'],
    abbr: ['title'],
  },
  allowedEmptyAttributes: ['alt'],
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  allowedClasses: {},
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  nestingLimit: MAX_HTML_DEPTH,
  nonTextTags: [...DROP_WITH_CONTENT],
  selfClosing: ['img', 'br', 'hr'],
  enforceHtmlBoundary: true,
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
};

/** One HTML fragment from the API, safe to store. */
export function sanitizeUpstreamHtml(html: string): string {
  return html === '' ? '' : sanitizeHtml(html, OPTIONS);
}

/** Fields that hold HTML: `*_html`, `html` (a release's `body`) and `description` (HTML in every Newsroom API item that has one). */
const isHtmlField = (key: string) => key.endsWith('_html') || key === 'html' || key === 'description';

/** A copy of an entry with every HTML field, at any depth, sanitised. */
export function sanitizeHtmlFields<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => sanitizeHtmlFields(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value; // a Date, a URL: kept as it is
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = typeof field === 'string' && isHtmlField(key) ? sanitizeUpstreamHtml(field) : sanitizeHtmlFields(field);
  }
  return out as T;
}
