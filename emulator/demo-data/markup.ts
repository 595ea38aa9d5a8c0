/**
 * Tiny inline markup for prose templates, turned into HTML or plain text:
 * `**bold**` → <strong>, `__em__` → <em>, `[text](https://…)` → <a href>.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function inlineHtml(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/__(.+?)__/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
}

export function plainText(text: string): string {
  return text
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/__(.+?)__/g, '$1')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '$1');
}

/** Fills `{slot}` placeholders; unknown slots are a bug in a template, so they throw. */
export function fill(template: string, slots: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = slots[key];
    if (value === undefined) throw new Error(`demo-data: unknown slot {${key}} in "${template}"`);
    return value;
  });
}

export function paragraph(text: string): string {
  return `<p>${inlineHtml(text)}</p>`;
}

export function list(items: ReadonlyArray<string>, ordered = false): string {
  const tag = ordered ? 'ol' : 'ul';
  return `<${tag}>${items.map((i) => `<li>${inlineHtml(i)}</li>`).join('')}</${tag}>`;
}

export function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}
