/**
 * Tiny inline markup for prose templates, turned into HTML or plain text:
 * `**bold**` → <strong>, `__em__` → <em>, `[text](https://…)` → <a href>.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function inlineHtml(text: string): string {
  let html = escapeHtml(text);
  if (html.includes('**')) html = html.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
  if (html.includes('__')) html = html.replace(/__(.+?)__/g, '<em>$1</em>');
  if (html.includes('](')) html = html.replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
  return html;
}

export function plainText(text: string): string {
  let plain = text;
  if (plain.includes('**')) plain = plain.replace(/\*\*(.+?)\*\*/g, '$1');
  if (plain.includes('__')) plain = plain.replace(/__(.+?)__/g, '$1');
  if (plain.includes('](')) plain = plain.replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '$1');
  return plain;
}

/** Templates split once into literal text (even indexes) and slot names (odd indexes). */
const compiled = new Map<string, readonly string[]>();

function compile(template: string): readonly string[] {
  let parts = compiled.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    compiled.set(template, parts);
  }
  return parts;
}

/** Fills `{slot}` placeholders; unknown slots are a bug in a template, so they throw. */
export function fill(template: string, slots: Readonly<Record<string, string>>): string {
  const parts = compile(template);
  if (parts.length === 1) return template;
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i] ?? '';
    const value = slots[key];
    if (value === undefined) throw new Error(`demo-data: unknown slot {${key}} in "${template}"`);
    out += value + (parts[i + 1] ?? '');
  }
  return out;
}

export function paragraph(text: string): string {
  return `<p>${inlineHtml(text)}</p>`;
}

export function list(items: ReadonlyArray<string>, ordered = false): string {
  const tag = ordered ? 'ol' : 'ul';
  return `<${tag}>${items.map((i) => `<li>${inlineHtml(i)}</li>`).join('')}</${tag}>`;
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
