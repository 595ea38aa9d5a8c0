/**
 * Release bodies end with "High-resolution images are available in the media
 * kit" and link nothing: the first unlinked mention of a media kit leads to
 * what it promises (the release's own pictures, else the media kits). Runs on
 * the upstream body before it is sanitized (sanitizing stays the last step):
 * a tag is read as `<…>`, and whatever an odd body makes of that, the
 * sanitizer has the last word on the result.
 */

/** "media kit", "press kit", "mediakit", "persmap", "Pressemappe", "kit média", "dossier de presse". */
const MENTION = /\b(?:media[ -]?kits?|press[ -]?kits?|mediakits?|persmap|pressemappen?|kits? (?:média|presse)|dossier de presse)\b/iu;
const PART = /<[^>]*>|[^<]+/g;

/** `html` with its first media-kit mention outside a link made a link to `href`; unchanged when there is none. */
export function linkMediaKitMention(html: string, href: string): string {
  let linkDepth = 0;
  for (const part of html.matchAll(PART)) {
    const chunk = part[0];
    if (chunk.startsWith('<')) {
      if (/^<a[\s>]/i.test(chunk)) linkDepth++;
      else if (/^<\/a\s*>/i.test(chunk)) linkDepth = Math.max(0, linkDepth - 1);
      continue;
    }
    if (linkDepth > 0) continue;
    const found = MENTION.exec(chunk);
    if (!found) continue;
    const at = part.index + found.index;
    const escaped = href.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    return `${html.slice(0, at)}<a href="${escaped}">${found[0]}</a>${html.slice(at + found[0].length)}`;
  }
  return html;
}
