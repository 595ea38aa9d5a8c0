/**
 * The release bodies' Markdown kept between builds (src/lib/markdown-cache.ts): a kept entry
 * gives the text converting gives, keyed by every input, in a folder per code; a cache that
 * cannot be used converts instead of failing; pruning keeps what builds use.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cachedMarkdown, configureMarkdownCache, markdownCacheStats, pruneMarkdownCache } from '../../../src/lib/markdown-cache.ts';
import { htmlToBlocks, serialize, serializedText, shiftHeadings, written, type Block } from '../../../src/lib/markdown.ts';
import { sanitizeArticle } from '../../../src/lib/sanitize.ts';
import { HOSTILE } from '../../helpers/hostile-html.ts';

const SITE = new URL('https://press.example.test');
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'markdown-cache-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});
afterEach(() => configureMarkdownCache(undefined));

/** A conversion that counts its calls. */
function counted(text: string) {
  const convert = () => {
    convert.calls++;
    return text;
  };
  convert.calls = 0;
  return convert;
}

describe('cachedMarkdown', () => {
  it('converts every time when no build configured it', async () => {
    const convert = counted('**body**');
    expect(await cachedMarkdown(['a'], convert)).toBe('**body**');
    expect(await cachedMarkdown(['a'], convert)).toBe('**body**');
    expect(convert.calls).toBe(2);
  });

  it('gives a later build the text an earlier one converted, without converting; other inputs are other entries', async () => {
    const dir = path.join(tmp, 'kept', 'code-1');
    configureMarkdownCache(dir);
    const first = counted('Body ünïcode — text\n\n- a list');
    expect(await cachedMarkdown([SITE.href, '1', '<p>x</p>'], first)).toBe('Body ünïcode — text\n\n- a list');
    expect(markdownCacheStats()).toEqual({ hits: 0, misses: 1 });

    configureMarkdownCache(dir); // the next build
    const again = counted('never used');
    expect(await cachedMarkdown([SITE.href, '1', '<p>x</p>'], again)).toBe('Body ünïcode — text\n\n- a list');
    expect(again.calls).toBe(0);
    // Inputs are told apart whole: the same characters split differently are another entry, and so is another depth.
    for (const inputs of [
      [`${SITE.href}1`, '', '<p>x</p>'],
      [SITE.href, '2', '<p>x</p>'],
      [SITE.href, '1', '<p>y</p>'],
    ])
      expect(await cachedMarkdown(inputs, counted('other'))).toBe('other');
    expect(markdownCacheStats()).toEqual({ hits: 1, misses: 3 });
    expect((await readdir(dir)).filter((f) => f.endsWith('.md'))).toHaveLength(4);
  });

  it('converts, and does not fail, when its folder cannot be written or an entry cannot be read', async () => {
    const blocked = path.join(tmp, 'a-file');
    await writeFile(blocked, 'not a folder');
    configureMarkdownCache(path.join(blocked, 'code'));
    expect(await cachedMarkdown(['x'], counted('converted'))).toBe('converted');

    const dir = path.join(tmp, 'unreadable', 'code');
    configureMarkdownCache(dir);
    await cachedMarkdown(['y'], counted('first'));
    const [entry] = await readdir(dir);
    await rm(path.join(dir, entry!));
    await mkdir(path.join(dir, entry!)); // a folder where the entry was: reading and renaming onto it fail
    configureMarkdownCache(dir);
    expect(await cachedMarkdown(['y'], counted('second'))).toBe('second');
    expect(await readdir(dir)).toEqual([entry]); // the text written beside it is not left behind
  });
});

describe('pruneMarkdownCache', () => {
  it('removes the folders of other code and old entries no build used, keeping what this build used and recent ones', async () => {
    const root = path.join(tmp, 'prune');
    const dir = path.join(root, 'code-new');
    await mkdir(path.join(root, 'code-old'), { recursive: true });
    await writeFile(path.join(root, 'code-old', 'x.md'), 'old code');
    configureMarkdownCache(dir);
    await cachedMarkdown(['old but used'], counted('a'));
    await cachedMarkdown(['unused'], counted('b'));
    await cachedMarkdown(['unused too'], counted('c'));
    const names = await readdir(dir);
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    for (const name of names) await utimes(path.join(dir, name), longAgo, longAgo);
    await writeFile(path.join(dir, 'recent.md'), 'c'); // written lately by another press room sharing the folder

    configureMarkdownCache(dir); // the next build uses one entry only
    expect(await cachedMarkdown(['old but used'], counted('never'))).toBe('a');
    expect(await pruneMarkdownCache(30 * 86_400_000)).toMatchObject({ files: 2 });
    expect(await readdir(root)).toEqual(['code-new']);
    const left = await readdir(dir);
    expect(left).toHaveLength(2);
    expect(left).toContain('recent.md');
    expect(await cachedMarkdown(['old but used'], counted('never'))).toBe('a');
  });

  it('does nothing when no build configured it', async () => {
    expect(await pruneMarkdownCache(0)).toBeUndefined();
  });
});

describe('a body written from its kept text', () => {
  // Where a twin and llms-full.txt put a body: after the title, subtitle, dateline or summary, before
  // the gallery's heading, the boilerplate's or contacts' heading, or the facts' rule.
  const before: Block[] = [
    { type: 'heading', depth: 1, children: [{ type: 'text', value: 'Title' }] },
    { type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: 'Summary' }] }] },
  ];
  const afters: Block[][] = [
    [{ type: 'heading', depth: 2, children: [{ type: 'text', value: 'Images' }] }],
    [{ type: 'thematicBreak' }, ...htmlToBlocks('<ul><li>Published: 2026</li></ul>', SITE)],
  ];
  const bodies = [
    ...HOSTILE.map((html) => sanitizeArticle(html)),
    '<h2>Heading</h2><p>Text with <a href="/a">a link</a></p><ul><li>ends</li><li>in a list</li></ul>',
    '<ol start="3"><li>starts in a list</li></ol><blockquote><p>quote</p></blockquote><h4>Deep</h4>',
    '<table><thead><tr><th>a|b</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
    'plain text, <b>no block</b> markup<br>and a break',
    '',
  ];

  it('writes the same document as converting the body in place, at both depths; a body that writes nothing adds nothing', () => {
    let empty = 0;
    for (const html of bodies)
      for (const depth of [1, 2])
        for (const after of afters) {
          const blocks = shiftHeadings(htmlToBlocks(html, SITE), depth - 1);
          const document = serialize([...before, ...written(serializedText(blocks)), ...after]);
          if (serializedText(blocks) === '') {
            empty++;
            expect(document, html).toBe(serialize([...before, ...after]));
          } else expect(document, html).toBe(serialize([...before, ...blocks, ...after]));
        }
    expect(empty).toBeGreaterThan(0);
  });
});
