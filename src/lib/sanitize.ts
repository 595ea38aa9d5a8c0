/**
 * The allow-list sanitizer every piece of upstream HTML passes through as the
 * LAST step before a page sets it with `set:html` (docs/security.md).
 *
 *   sanitizeArticle(html)  release bodies, custom pages, live updates
 *   sanitizeBasic(html)    about text, boilerplate, kit/event descriptions
 *   htmlToText(html)       plain text for summaries and meta tags (escaped by Astro)
 *
 * Nothing here trusts the API: no scripts, styles, event handlers, frames,
 * SVG/MathML, forms or embedded objects; links only http(s), mailto and tel
 * (or site-relative), external ones get `rel="noopener noreferrer"`; no ids,
 * classes or inline styles survive; images are only kept when the image
 * pipeline supplies a site-local copy (see inline-images.ts).
 */
import { DROP_WITH_CONTENT, MAX_HTML_DEPTH } from '@pressroom-static/content-loaders';
import sanitizeHtml from 'sanitize-html';
import { Parser } from 'htmlparser2';
import { BLOCK_ELEMENTS } from './block-elements.ts';
import { parseSrcset } from './srcset.ts';

/** A site-local copy of an inline image, from the image pipeline. */
export interface InlineImage {
  /** A path inside this site (`/_media/…`); anything else is refused. */
  src: string;
  /** `srcset` with site-local URLs only. */
  srcset?: string;
  width?: number;
  height?: number;
}

/**
 * The hook for `<img>` in upstream HTML: the site-local copy of `src`, or null
 * to drop the image. Pages get one from `inlineImageRewriter()` (src/lib/inline-images.ts,
 * backed by the image pipeline); without one every inline image is dropped.
 */
export type InlineImageRewriter = (src: string) => InlineImage | null;

/** The safe default: no site-local copy, so the image is dropped (never requested from the API's host). */
const dropInlineImages: InlineImageRewriter = () => null;

export interface SanitizeOptions {
  /** rewriteInlineImage(src): the image pipeline's site-local copy of an inline image (default: drop it). */
  rewriteInlineImage?: InlineImageRewriter;
  /** `sizes` for inline images that come with a srcset. */
  imageSizes?: string;
}

const BASIC_TAGS = ['p', 'br', 'a', 'strong', 'em', 'b', 'i', 'ul', 'ol', 'li', 'blockquote'];
const ARTICLE_TAGS = [...BASIC_TAGS, 'h2', 'h3', 'h4', 'cite', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption', 'img'];

/** A path inside this site: starts with one `/`, no scheme, no backslash tricks. */
function isSiteLocal(url: string): boolean {
  return /^\/(?![/\\])[^\s"'<>\\]*$/.test(url);
}

function isSiteLocalSrcset(srcset: string): boolean {
  const candidates = parseSrcset(srcset);
  return candidates.length > 0 && candidates.every(({ url }) => isSiteLocal(url));
}

function isExternal(href: string): boolean {
  return /^https?:/i.test(href.trim());
}

function options(
  profile: 'article' | 'basic',
  rewrite: InlineImageRewriter,
  imageSizes = '(min-width: 48rem) 44rem, 100vw',
): sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } {
  // Figures whose only image had no site-local copy are dropped whole (the caption alone means nothing).
  let dropped = 0;
  const figureStack: number[] = [];
  // The attribute objects of images to drop (the sanitizer strips unknown attributes, so no marker attribute survives).
  const droppedImages = new WeakSet<object>();

  return {
    allowedTags: profile === 'article' ? ARTICLE_TAGS : BASIC_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
      th: ['colspan', 'rowspan', { name: 'scope', multiple: false, values: ['row', 'col', 'rowgroup', 'colgroup'] }],
      td: ['colspan', 'rowspan'],
      ol: ['start'],
    },
    allowedEmptyAttributes: ['alt'],
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    allowedClasses: {},
    allowedStyles: {},
    disallowedTagsMode: 'discard',
    nestingLimit: MAX_HTML_DEPTH,
    nonTextTags: [...DROP_WITH_CONTENT],
    selfClosing: ['img', 'br'],
    enforceHtmlBoundary: true,
    parser: { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
    transformTags: {
      h1: 'h2',
      h5: 'h4',
      h6: 'h4',
      a: (_tag, attribs) => {
        const out: sanitizeHtml.Attributes = {};
        const href = (attribs.href ?? '').trim();
        if (href) out.href = href;
        if (attribs.title) out.title = attribs.title;
        if (href && isExternal(href)) out.rel = 'noopener noreferrer';
        return { tagName: 'a', attribs: out };
      },
      figure: (_tag, attribs) => {
        figureStack.push(dropped);
        return { tagName: 'figure', attribs };
      },
      img: (_tag, attribs) => {
        const local = profile === 'article' && attribs.src ? rewrite(attribs.src) : null;
        if (!local || !isSiteLocal(local.src) || (local.srcset !== undefined && !isSiteLocalSrcset(local.srcset))) {
          dropped++;
          const marker: sanitizeHtml.Attributes = {};
          droppedImages.add(marker);
          return { tagName: 'img', attribs: marker };
        }
        const out: sanitizeHtml.Attributes = { src: local.src, alt: attribs.alt ?? '', loading: 'lazy', decoding: 'async' };
        if (local.srcset) {
          out.srcset = local.srcset;
          out.sizes = imageSizes;
        }
        if (local.width) out.width = String(Math.round(local.width));
        if (local.height) out.height = String(Math.round(local.height));
        return { tagName: 'img', attribs: out };
      },
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img') return droppedImages.has(frame.attribs);
      if (frame.tag === 'figure') {
        const before = figureStack.pop() ?? dropped;
        return dropped > before && frame.mediaChildren.length === 0;
      }
      if (frame.tag === 'a') {
        // Empty links (no text, no image) are noise for screen readers; a link whose href was refused is just its text.
        if (frame.text.trim() === '' && frame.mediaChildren.length === 0) return true;
        if (!frame.attribs.href) return 'excludeTag';
      }
      return false;
    },
  };
}

/** Release bodies, custom pages, live updates. */
export function sanitizeArticle(html: string | null | undefined, opts: SanitizeOptions = {}): string {
  if (!html) return '';
  return sanitizeHtml(html, options('article', opts.rewriteInlineImage ?? dropInlineImages, opts.imageSizes)).trim();
}

/** About text, boilerplate, descriptions: paragraphs, emphasis, lists and links only. */
export function sanitizeBasic(html: string | null | undefined): string {
  if (!html) return '';
  return sanitizeHtml(html, options('basic', dropInlineImages)).trim();
}

const SKIP = new Set(DROP_WITH_CONTENT);

/** The visible text of upstream HTML, whitespace collapsed. Safe to interpolate (Astro escapes it). */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  let out = '';
  let skipDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skipDepth++;
        else if (BLOCK_ELEMENTS.has(name)) out += ' ';
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        else if (BLOCK_ELEMENTS.has(name)) out += ' ';
      },
      ontext(text) {
        if (skipDepth === 0) out += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return out.replace(/\s+/g, ' ').trim();
}

/** Shortens text at a word boundary, adding an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  if (/\s/.test(text.charAt(max - 1))) return `${cut.replace(/[\s,;:.–-]+$/, '')}…`;
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

/** A text shortened to a length, and whether it was (to add a link to the whole). */
export interface Excerpt {
  text: string;
  cut: boolean;
}

/** The end of a sentence: its punctuation, a closing quote or bracket, then a space. */
const SENTENCE_END = /[.!?…]["'”’)\]]?(?=\s)/g;

/**
 * Text shortened to at most `max` characters without cutting a sentence when one ends in the
 * second half, else without cutting a word; an ellipsis marks the cut (one word longer than `max`
 * is the only thing ever cut inside).
 */
export function excerpt(text: string, max: number): Excerpt {
  const whole = text.trim();
  if (whole.length <= max) return { text: whole, cut: false };
  const head = whole.slice(0, max + 1);
  let sentenceEnd = 0;
  for (const match of head.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    if (end <= max - 2) sentenceEnd = end;
  }
  if (sentenceEnd >= max / 2) return { text: `${whole.slice(0, sentenceEnd)} …`, cut: true };
  const space = head.search(/\s\S*$/);
  const words = space > 0 ? head.slice(0, space) : whole.slice(0, max - 1);
  return { text: `${words.replace(/[\s,;:.–-]+$/, '')}…`, cut: true };
}
