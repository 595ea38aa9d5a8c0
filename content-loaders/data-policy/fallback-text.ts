/**
 * Text for items whose API answer left it empty: a release title from the
 * first words of its body, and a body from the editor blocks of
 * `content_as_json` (both vocabularies the live API has used: `header` +
 * `textarea` with `data.body` in 2015, `header` + `text` with `data.text` and
 * `data.style` in 2016). Never `draft_content_as_json`: unpublished edits.
 * The HTML made here is upstream HTML like any other: the site sanitises it.
 */
import { decodeHTML } from 'entities';

const TAG = /<[^>]*>/g;

/**
 * Plain text of a bit of upstream HTML, for a title (rendered as text, so escaped by the page).
 * Character references are decoded as HTML does: one that names no character (`&#99999999;`, a
 * surrogate) becomes U+FFFD, never an error.
 */
export function plainText(html: string): string {
  return decodeHTML(html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(TAG, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first sentence (or words, up to `max` characters) of a body, as a title; undefined when the body has no text. */
export function titleFromBody(html: unknown, max = 90): string | undefined {
  if (typeof html !== 'string') return undefined;
  const text = plainText(html);
  if (text === '') return undefined;
  const sentence = /^(.{12,}?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
}

type Block = { type?: unknown; data?: Record<string, unknown> | null };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const str = (value: unknown) => (typeof value === 'string' ? value : '');
/** A paragraph's HTML: kept as HTML when it holds block markup, else wrapped in `<p>`. */
const paragraph = (html: string) => (/^\s*<(p|ul|ol|h[1-6]|blockquote|figure|table|div)\b/i.test(html) ? html : `<p>${html}</p>`);

function blockHtml(block: Block): string {
  const data = block.data ?? {};
  switch (block.type) {
    case 'header': {
      const text = str(data.text) || str(data.title) || str(data.body);
      const level = Math.min(4, Math.max(2, Number(data.level) || 2));
      return text ? `<h${level}>${text}</h${level}>` : '';
    }
    case 'textarea':
    case 'text':
    case 'paragraph': {
      const html = str(data.body) || str(data.text);
      if (!html) return '';
      return data.style === 'quote' ? `<blockquote>${paragraph(html)}</blockquote>` : paragraph(html);
    }
    case 'quote': {
      const text = str(data.text) || str(data.body);
      const caption = str(data.caption) || str(data.author);
      return text ? `<blockquote>${paragraph(text)}${caption ? `<p>— ${escapeHtml(plainText(caption))}</p>` : ''}</blockquote>` : '';
    }
    case 'list': {
      const items = Array.isArray(data.items)
        ? data.items.map((item) => (typeof item === 'string' ? item : str((item as Record<string, unknown>)?.content)))
        : [];
      const tag = data.style === 'ordered' ? 'ol' : 'ul';
      return items.length > 0 ? `<${tag}>${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>` : '';
    }
    default:
      // `media` and embeds point at library items the page shows anyway; unknown blocks are left out.
      return '';
  }
}

/** A body from `content_as_json` (a JSON string, or already parsed), or undefined when it gives none. */
export function bodyFromBlocks(contentAsJson: unknown): string | undefined {
  let parsed = contentAsJson;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return undefined;
    }
  }
  const blocks = Array.isArray(parsed)
    ? parsed
    : Array.isArray((parsed as { blocks?: unknown })?.blocks)
      ? (parsed as { blocks: unknown[] }).blocks
      : [];
  const html = blocks
    .filter((b): b is Block => !!b && typeof b === 'object')
    .map(blockHtml)
    .filter(Boolean)
    .join('\n');
  return html === '' ? undefined : html;
}
