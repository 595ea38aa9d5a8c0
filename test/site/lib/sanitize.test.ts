/**
 * The sanitizer against hostile upstream HTML: whatever goes in, what comes
 * out holds no script, handler, style, frame, SVG/MathML, form or object, and
 * links only to http(s), mailto and tel (or this site).
 */
import { parseDocument, DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeArticle, sanitizeBasic, truncate } from '../../../src/lib/sanitize.ts';
import { MAX_HTML_DEPTH, sanitizeUpstreamHtml } from '../../../content-loaders/html/sanitize-upstream.ts';
import { htmlToBlocks } from '../../../src/lib/markdown.ts';

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<img srcset="https://evil.example/a.png 1x">',
  '<p onclick="alert(1)" onmouseover=alert(1)>click</p>',
  '<a href="javascript:alert(1)">js</a>',
  '<a href="JaVaScRiPt:alert(1)">js</a>',
  '<a href="jav&#x09;ascript:alert(1)">js</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">js</a>',
  '<a href=" javascript:alert(1)">js</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="//evil.example/">protocol-relative</a>',
  '<svg onload=alert(1)><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="https://evil.example/x.swf">',
  '<form action="https://evil.example"><input name=q><button formaction="javascript:alert(1)">go</button></form>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><img src=x onerror=alert(1)></template>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<div id="__proto__" class="x" data-x="1">attrs</div>',
  '<a href="https://example.com" id="login" name="x" target="_blank" rel="opener">ok</a>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><script>alert(1)</script></xmp>',
  '"><script>alert(1)</script>',
  '<table><td background="javascript:alert(1)">x</td></table>',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
];

const FORBIDDEN_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'svg',
  'math',
  'link',
  'meta',
  'base',
  'noscript',
  'template',
  'textarea',
  'xmp',
  'video',
  'audio',
  'source',
  'details',
  'marquee',
  'animate',
  'div',
  'span',
]);
const ALLOWED_ATTRS: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  ol: ['start'],
};

/** What a browser would see: every element and attribute of the output, checked against the allow-list. */
function assertInert(html: string, label: string) {
  const doc = parseDocument(html);
  for (const el of DomUtils.findAll(() => true, doc.children)) {
    expect(FORBIDDEN_TAGS.has(el.name), `${label}: <${el.name}> in ${html}`).toBe(false);
    for (const [attr, value] of Object.entries(el.attribs)) {
      expect(ALLOWED_ATTRS[el.name] ?? [], `${label}: <${el.name} ${attr}> in ${html}`).toContain(attr);
      if (attr === 'href') expect(value, `${label}: href in ${html}`).toMatch(/^(https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i);
      if (attr === 'src' || attr === 'srcset') expect(value, `${label}: ${attr} in ${html}`).toMatch(/^\/(?!\/)/);
    }
  }
  expect(html).not.toMatch(/<\s*script/i);
  expect(html).not.toMatch(/javascript:/i);
}

describe('sanitizeArticle', () => {
  it.each(HOSTILE)('renders %s inert', (input) => {
    assertInert(sanitizeArticle(input), 'article');
    assertInert(sanitizeArticle(`<p>before</p>${input}<p>after</p>`), 'article in context');
    assertInert(sanitizeBasic(input), 'basic');
  });

  it('keeps the article markup press releases use', () => {
    const body =
      '<h2>Heading</h2><h3>Sub</h3><h4>Minor</h4><p><strong>AMSTERDAM</strong> – <em>text</em> <b>b</b> <i>i</i><br>line</p>' +
      '<ul><li>one</li></ul><ol start="3"><li>three</li></ol>' +
      '<blockquote><p>“Quote.”</p><p><cite>Someone</cite></p></blockquote>' +
      '<table><thead><tr><th scope="col">Metric</th></tr></thead><tbody><tr><td colspan="2">17,832</td></tr></tbody></table>';
    expect(sanitizeArticle(body)).toBe(body.replace('<br>', '<br />'));
  });

  it('turns h1 into h2 (one h1 per page) and h5/h6 into h4', () => {
    expect(sanitizeArticle('<h1>A</h1><h5>B</h5><h6>C</h6>')).toBe('<h2>A</h2><h4>B</h4><h4>C</h4>');
  });

  it('marks external links noopener noreferrer and keeps mailto, tel and site links', () => {
    expect(sanitizeArticle('<a href="https://example.com/x" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com/x" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeArticle('<a href="mailto:press@example.com">m</a> <a href="tel:+3120">t</a> <a href="/100-slug">s</a>')).toBe(
      '<a href="mailto:press@example.com">m</a> <a href="tel:+3120">t</a> <a href="/100-slug">s</a>',
    );
  });

  it('keeps the text of a link whose URL is refused, and drops empty links', () => {
    expect(sanitizeArticle('<p><a href="javascript:alert(1)">click</a> <a href="https://x.example"></a></p>')).toBe('<p>click </p>');
  });

  it('drops inline images without a site-local copy, with the figure they were in', () => {
    const html =
      '<p>a</p><figure><img src="http://127.0.0.1:4010/media/images/1/large.jpg" alt="Hub"><figcaption>Hub</figcaption></figure><p>b<img src="https://cdn.example/x.jpg" alt="x">c</p>';
    expect(sanitizeArticle(html)).toBe('<p>a</p><p>bc</p>');
    // A figure holding something else keeps it.
    expect(sanitizeArticle('<figure><blockquote><p>q</p></blockquote><figcaption>c</figcaption></figure>')).toBe(
      '<figure><blockquote><p>q</p></blockquote><figcaption>c</figcaption></figure>',
    );
  });

  it('puts the image pipeline copy in place through rewriteInlineImage(src), refusing anything not on this site', () => {
    const html =
      '<figure><img src="http://api.example/media/images/1/large.jpg" alt="Hub" onerror="x()"><figcaption>Hub</figcaption></figure>';
    const local = sanitizeArticle(html, {
      rewriteInlineImage: (src) =>
        src.endsWith('/1/large.jpg')
          ? {
              src: '/_media/abc-1200x675.jpg',
              srcset: '/_media/abc-600x338.jpg 600w, /_media/abc-1200x675.jpg 1200w',
              width: 1200,
              height: 675,
            }
          : null,
    });
    expect(local).toBe(
      '<figure><img src="/_media/abc-1200x675.jpg" alt="Hub" loading="lazy" decoding="async" srcset="/_media/abc-600x338.jpg 600w, /_media/abc-1200x675.jpg 1200w" sizes="(min-width: 48rem) 44rem, 100vw" width="1200" height="675" /><figcaption>Hub</figcaption></figure>',
    );
    for (const bad of ['https://evil.example/x.jpg', '//evil.example/x.jpg', 'javascript:alert(1)', '/\\evil.example/x.jpg']) {
      expect(sanitizeArticle(html, { rewriteInlineImage: () => ({ src: bad }) }), bad).toBe('');
    }
    expect(sanitizeArticle(html, { rewriteInlineImage: () => ({ src: '/_media/a.jpg', srcset: 'https://evil.example/a.jpg 1x' }) })).toBe(
      '',
    );
    // Every candidate a browser would see, split as a browser splits it (the shared srcset parser).
    for (const bad of [
      '/_media/a.jpg 1x, //evil.example/b.jpg 2x',
      '/_media/a.jpg 1x,https://evil.example/b.jpg 2x',
      '/_media/a.jpg 1x (x), data:image/png;base64,AA 2x',
      ' , ',
    ]) {
      expect(sanitizeArticle(html, { rewriteInlineImage: () => ({ src: '/_media/a.jpg', srcset: bad }) }), bad).toBe('');
    }
    expect(
      sanitizeArticle(html, { rewriteInlineImage: () => ({ src: '/_media/a.jpg', srcset: '/_media/a,1.jpg 1x, /_media/b.jpg 2x' }) }),
    ).toContain('srcset="/_media/a,1.jpg 1x, /_media/b.jpg 2x"');
  });

  it('survives empty and missing input', () => {
    expect(sanitizeArticle(null)).toBe('');
    expect(sanitizeArticle('')).toBe('');
    expect(sanitizeBasic(undefined)).toBe('');
  });
});

describe('sanitizeBasic', () => {
  it('keeps paragraphs, emphasis, lists and links, and nothing more', () => {
    expect(
      sanitizeBasic(
        '<p><strong>About</strong><br>Text <a href="https://x.example">x</a></p><h2>Heading</h2><table><tr><td>t</td></tr></table><img src="/a.jpg" alt="a">',
      ),
    ).toBe('<p><strong>About</strong><br />Text <a href="https://x.example" rel="noopener noreferrer">x</a></p>Headingt');
  });
});

describe('htmlToText', () => {
  it('gives the visible text with entities decoded and scripts left out', () => {
    expect(htmlToText('<p>A &amp; B</p><p>C<script>alert(1)</script><style>x{}</style></p><ul><li>D</li></ul>')).toBe('A & B C D');
  });
  it('keeps the words of neighbouring blocks apart, and inline elements inside their sentence', () => {
    expect(htmlToText('<dl><dt>Founded</dt><dd>1998</dd></dl><table><tr><td>Amsterdam</td><td>Berlin</td></tr></table>After')).toBe(
      'Founded 1998 Amsterdam Berlin After',
    );
    expect(htmlToText('<header>Northwind</header><address>Amsterdam</address><footer>2026</footer>')).toBe('Northwind Amsterdam 2026');
    expect(htmlToText('<p>Launched on <time datetime="2026-05-05">5 May</time>, in <b>Berlin</b>.</p>')).toBe(
      'Launched on 5 May, in Berlin.',
    );
  });
  it('truncates at a word boundary', () => {
    expect(truncate('The quick brown fox jumps over the lazy dog', 20)).toBe('The quick brown fox…');
    expect(truncate('short', 20)).toBe('short');
  });
});

describe('deeply nested upstream HTML', () => {
  it('keeps its text but not its depth, so no recursive reader after the sanitizers can overflow', () => {
    const depth = 100_000;
    const deep = `${'<div><span>'.repeat(depth / 2)}The text${'</span></div>'.repeat(depth / 2)}`;
    const stored = sanitizeUpstreamHtml(deep);
    const maxDepth = (html: string) => {
      let level = 0;
      let max = 0;
      for (const tag of html.match(/<\/?[a-z][^>]*>/g) ?? []) max = Math.max(max, (level += tag.startsWith('</') ? -1 : 1));
      return max;
    };
    expect(stored).toContain('The text');
    expect(maxDepth(stored)).toBeLessThanOrEqual(MAX_HTML_DEPTH);
    const article = sanitizeArticle(deep);
    expect(maxDepth(article)).toBeLessThanOrEqual(MAX_HTML_DEPTH);
    expect(htmlToBlocks(stored, new URL('https://press.example/')).length).toBeGreaterThan(0);
  });
});
