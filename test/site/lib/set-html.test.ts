/**
 * Every `set:html` in the site gets sanitized HTML (or JSON-LD/CSS/script built by
 * the site itself), and the sanitizer is the last step: a variable passed to
 * set:html is assigned straight from sanitizeArticle()/sanitizeBasic(), or from
 * sanitizedBody() (src/lib/release-body.ts), which returns sanitizeArticle()'s result (flattened)
 * of the stored body (its media-kit mention linked first).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..', '..', 'src');
// The site's own: JSON-LD, theme CSS, the events' view-time script (src/scripts/event-phases.js).
const SELF_MADE = new Set(['serializeJsonLd(data)', 'theme', 'eventPhasesScript']);

it('passes only sanitized HTML to set:html', async () => {
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.astro')).map((f) => path.join(root, f));
  const problems: string[] = [];
  let uses = 0;
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(/set:html=\{([^}]+)\}/g)) {
      uses++;
      const expression = match[1]!.trim();
      if (SELF_MADE.has(expression)) continue;
      const assignment = new RegExp(`const ${expression.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} = (.+);`).exec(source)?.[1] ?? '';
      const sanitized = /^(release\.show_boilerplate_text \? )?(sanitize(Article|Basic)\(|await sanitizedBody\()/.test(assignment);
      if (!sanitized)
        problems.push(`${path.relative(root, file)}: set:html={${expression}} (${assignment || 'not assigned in this file'})`);
    }
  }
  expect(uses).toBeGreaterThan(4);
  expect(problems).toEqual([]);
  // sanitizedBody() gives what sanitizeArticle() returned (a flat copy of it), as its last step.
  const releaseBody = await readFile(path.join(root, 'lib', 'release-body.ts'), 'utf8');
  expect(releaseBody).toMatch(
    /async function sanitized\([^)]*\): Promise<string> \{[^}]*\n {2}return detached\(sanitizeArticle\(body, \{ rewriteInlineImage \}\)\);\n\}/,
  );
});
