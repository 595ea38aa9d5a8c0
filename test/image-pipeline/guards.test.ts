/**
 * Guards: every hostile case is refused, the caller still gets a graceful
 * result (a placeholder picture, a null download), a warning names the URL
 * and the page, and the refusal is counted. Tiny servers on 127.0.0.1:0; DNS
 * answers for made-up host names come from a stub lookup.
 */
import { createHash } from 'node:crypto';
import { readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, createHostPolicy } from '../../image-pipeline/host-policy.ts';
import type { ImagePipeline, Picture } from '../../image-pipeline/index.ts';
import { sniff } from '../../image-pipeline/sniff.ts';
import { RECENTLY_MARKED_MS } from '../../image-pipeline/store.ts';
import { sizes, tempDir, testPipeline, tinyServer, type TinyServer } from './helpers.ts';

/** A PNG whose header claims `width × height` pixels, with a tiny body. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PUBLIC_ADDRESS = '93.184.215.14';
const DNS: Record<string, string[]> = {
  'api.example.test': [PUBLIC_ADDRESS],
  'cdn.example.test': [PUBLIC_ADDRESS],
  'intranet.example.test': ['10.1.2.3'],
  'mixed.example.test': [PUBLIC_ADDRESS, '192.168.1.5'],
  'metadata.example.test': ['169.254.169.254'],
  'v6-loopback.example.test': ['::1'],
  localhost: ['127.0.0.1', '::1'],
};
const stubLookup = async (host: string) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

describe('image guards', () => {
  let server: TinyServer;
  let other: TinyServer;
  let cache: Awaited<ReturnType<typeof tempDir>>;
  let jpeg: Buffer;
  let bodies: Record<string, Buffer>;
  let flaky = 0;
  let redirectorValidators = 0;

  beforeAll(async () => {
    cache = await tempDir('guards');
    jpeg = await sharp({
      create: { width: 320, height: 240, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const etagOf = (b: Buffer) => `"${createHash('sha256').update(b).digest('hex').slice(0, 20)}"`;
    bodies = {
      '/ok.jpg': jpeg,
      '/bomb.png': pngClaiming(30_000, 30_000),
      '/html.jpg': Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'),
      '/logo.svg': Buffer.from(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      ),
      '/svg-as.png': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      '/cut.jpg': jpeg.subarray(0, Math.floor(jpeg.length * 0.6)),
      '/cut.png': pngClaiming(100, 100).subarray(0, 60),
      '/big.jpg': Buffer.concat([jpeg, Buffer.alloc(200_000)]),
      '/doc.pdf': Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
      '/exif.jpg': await sharp({ create: { width: 320, height: 240, channels: 3, background: '#357' } })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'Northwind', Artist: 'Photographer' } })
        .withIccProfile('p3')
        .toBuffer(),
    };
    server = await tinyServer((req, res) => {
      const url = req.url ?? '';
      const body = bodies[url.split('?')[0]!];
      if (body) {
        const etag = etagOf(body);
        if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
        return void res
          .writeHead(200, { 'content-type': url.endsWith('.svg') ? 'image/svg+xml' : 'image/jpeg', 'content-length': body.length, etag })
          .end(body);
      }
      if (url === '/big-chunked.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(jpeg);
        res.end(Buffer.alloc(200_000));
        return;
      }
      if (url === '/short-body.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
        res.write(jpeg.subarray(0, 1000));
        setTimeout(() => res.destroy(), 20);
        return;
      }
      if (url === '/trickle.jpg') {
        // Never stalls (a chunk every 100 ms), never finishes in time.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        let sent = 0;
        const drip = setInterval(() => {
          if (res.destroyed || sent >= 40) return clearInterval(drip);
          res.write(jpeg.subarray(sent * 10, sent * 10 + 10));
          sent++;
        }, 100);
        return;
      }
      if (url === '/stall.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(jpeg.subarray(0, 100));
        return; // never ends; the server closes it in afterAll
      }
      if (url.startsWith('/flaky.jpg')) {
        flaky++;
        if (flaky % 2 === 1) return void res.writeHead(503, { 'retry-after': '0' }).end();
        return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length }).end(jpeg);
      }
      if (url === '/to-localhost')
        return void res.writeHead(302, { location: `${other.url.replace('127.0.0.1', 'localhost')}/ok.jpg` }).end();
      if (url === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (url === '/to-ok') return void res.writeHead(301, { location: '/ok.jpg' }).end();
      if (url.startsWith('/redirector')) {
        // A redirect hop that would answer 304 for any validator: it must never be asked with one.
        if (req.headers['if-none-match']) {
          redirectorValidators++;
          return void res.writeHead(304).end();
        }
        return void res.writeHead(302, { location: `/ok.jpg?signature=${url.length}-${Date.now()}` }).end();
      }
      if (url.startsWith('/loop')) return void res.writeHead(307, { location: `/loop${url.length}` }).end();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Missing"}');
    });
    other = await tinyServer(
      (_req, res) => void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length }).end(jpeg),
    );
  });

  afterAll(async () => {
    await server?.close();
    await other?.close();
    await cache?.remove();
  });

  /** A pipeline whose API lives on 127.0.0.1 (the tiny server), small caps for the tests. */
  const local = (extra: { imageHosts?: string[]; maxPixels?: number; retries?: number } = {}) =>
    testPipeline({
      apiUrl: server.url,
      cacheDir: cache.dir,
      maxImageBytes: 100_000,
      stallTimeoutMs: 300,
      timeoutMs: 5_000,
      lookup: stubLookup,
      retries: 0,
      ...extra,
    });

  const picture = (p: ImagePipeline, url: string, page = '/releases/1-test') =>
    p.picture({ sizes: sizes(url, { original: [320, 240], medium: [160, 120] }) }, { page });

  function refused(result: Picture, reason: RegExp): void {
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe('refused');
    expect(result.reason).toMatch(reason);
    // The placeholder keeps the declared shape.
    expect([result.width, result.height]).toEqual([320, 240]);
  }

  it('accepts a good image and follows a redirect on the same host (control)', async () => {
    const p = local();
    expect((await picture(p, `${server.url}/ok.jpg`)).ok).toBe(true);
    expect((await picture(p, `${server.url}/to-ok`)).ok).toBe(true);
    expect(p.stats().refused).toBe(0);
  });

  it('asks a redirected original again with its ETag on the final hop, so an unchanged one costs a 304 (signed or CDN URLs)', async () => {
    const own = await tempDir('redirect-etag');
    try {
      const pipeline = () => testPipeline({ apiUrl: server.url, cacheDir: own.dir, lookup: stubLookup, retries: 0 });
      const first = pipeline();
      expect((await picture(first, `${server.url}/to-ok`)).ok).toBe(true);
      expect(first.stats()).toMatchObject({ downloads: 1, notModified: 0 });
      const second = pipeline();
      expect((await picture(second, `${server.url}/to-ok`)).ok).toBe(true);
      expect(second.stats()).toMatchObject({ downloads: 0, notModified: 1 });

      // A signed redirect target (new query each time) is still the same resource: a 304 from it, none asked of the redirector.
      const third = pipeline();
      expect((await picture(third, `${server.url}/redirector`)).ok).toBe(true);
      expect(third.stats()).toMatchObject({ downloads: 1 });
      const fourth = pipeline();
      expect((await picture(fourth, `${server.url}/redirector`)).ok).toBe(true);
      expect(fourth.stats()).toMatchObject({ downloads: 0, notModified: 1 });
      expect(redirectorValidators).toBe(0);
    } finally {
      await own.remove();
    }
  });

  it('prunes cache files no build has used for the given age, keeping what this build used however old', async () => {
    const own = await tempDir('prune');
    try {
      const pipeline = () => testPipeline({ apiUrl: server.url, cacheDir: own.dir, lookup: stubLookup, retries: 0 });
      expect((await picture(pipeline(), `${server.url}/ok.jpg`)).ok).toBe(true);
      const files = async () =>
        (await readdir(own.dir, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile() && !e.parentPath.endsWith('tmp'))
          .map((e) => path.join(e.parentPath, e.name))
          .sort();
      const usedFiles = await files();
      expect(usedFiles.length).toBeGreaterThan(3);
      const longAgo = new Date(Date.now() - 40 * 86_400_000);
      for (const file of usedFiles) await utimes(file, longAgo, longAgo);
      const oldOrphan = path.join(own.dir, 'out', '0123456789abcdef-10x10.webp');
      const newOrphan = path.join(own.dir, 'out', 'fedcba9876543210-10x10.webp');
      await writeFile(oldOrphan, 'old');
      await utimes(oldOrphan, longAgo, longAgo);
      await writeFile(newOrphan, 'new');

      const second = pipeline();
      expect((await picture(second, `${server.url}/ok.jpg`)).ok).toBe(true);
      expect(await second.pruneCache(30 * 86_400_000)).toEqual({ files: 1, bytes: 3 });
      expect(await files()).toEqual([...usedFiles, newOrphan].sort());
      for (const file of usedFiles) expect((await stat(file)).mtimeMs, file).toBeGreaterThan(longAgo.getTime() + 86_400_000);

      const third = pipeline();
      expect((await picture(third, `${server.url}/ok.jpg`)).ok).toBe(true);
      expect(third.stats()).toMatchObject({ downloads: 0, encoded: 0, sharpOps: 0 });
    } finally {
      await own.remove();
    }
  });

  it('marks a used cache file fresh unless a build marked it within the hour (a warm build touches none)', async () => {
    const own = await tempDir('marks');
    try {
      const pipeline = () => testPipeline({ apiUrl: server.url, cacheDir: own.dir, lookup: stubLookup, retries: 0 });
      expect((await picture(pipeline(), `${server.url}/ok.jpg`)).ok).toBe(true);
      const outputs = (await readdir(path.join(own.dir, 'out'))).map((name) => path.join(own.dir, 'out', name));
      expect(outputs.length).toBeGreaterThan(1);
      const mtimes = async () => Promise.all(outputs.map(async (file) => (await stat(file)).mtimeMs));
      const setAll = async (ago: number) => {
        const then = new Date(Date.now() - ago);
        for (const file of outputs) await utimes(file, then, then);
        return then.getTime();
      };

      // Marks are not awaited by the pipeline: give them time to land, or poll for them.
      const recently = await setAll(RECENTLY_MARKED_MS / 2);
      expect((await picture(pipeline(), `${server.url}/ok.jpg`)).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await mtimes()).toEqual(outputs.map(() => recently));

      const longer = await setAll(RECENTLY_MARKED_MS * 2);
      expect((await picture(pipeline(), `${server.url}/ok.jpg`)).ok).toBe(true);
      await expect.poll(async () => (await mtimes()).every((mtime) => mtime > longer + RECENTLY_MARKED_MS), { timeout: 5000 }).toBe(true);
    } finally {
      await own.remove();
    }
  });

  it('strips metadata from every rendition (EXIF, ICC), and offers AVIF first when asked', async () => {
    const own = await tempDir('exif');
    try {
      const source = await sharp(bodies['/exif.jpg']!).metadata();
      expect([source.exif !== undefined, source.icc !== undefined]).toEqual([true, true]);
      const p = testPipeline({ apiUrl: server.url, cacheDir: own.dir, lookup: stubLookup, retries: 0, avif: true });
      const pic = await picture(p, `${server.url}/exif.jpg`);
      expect(pic.ok).toBe(true);
      if (!pic.ok) return;
      expect(pic.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
      const files = [...p.published().values()];
      expect(files.some((f) => f.endsWith('.avif'))).toBe(true);
      for (const file of files) {
        const meta = await sharp(file).metadata();
        expect([meta.exif, meta.icc, meta.xmp], file).toEqual([undefined, undefined, undefined]);
      }
    } finally {
      await own.remove();
    }
  });

  it('refuses a download that keeps trickling past its whole-download deadline', async () => {
    const p = testPipeline({
      apiUrl: server.url,
      cacheDir: cache.dir,
      lookup: stubLookup,
      retries: 0,
      timeoutMs: 600,
      stallTimeoutMs: 400,
    });
    const started = Date.now();
    refused(await picture(p, `${server.url}/trickle.jpg`), /no complete download within/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it.each([
    ['a decompression bomb (30000x30000 PNG header)', '/bomb.png', /pixel cap/],
    ['HTML disguised as a JPEG', '/html.jpg', /HTML page, not an accepted image/],
    ['an SVG', '/logo.svg', /SVG image, not an accepted image/],
    ['an SVG named .png', '/svg-as.png', /SVG image/],
    ['a truncated JPEG', '/cut.jpg', /cut off|premature|truncat/i],
    ['a truncated PNG', '/cut.png', /cut off/],
    ['an oversize file (Content-Length)', '/big.jpg', /over the cap/],
    ['an oversize file (chunked)', '/big-chunked.jpg', /more than the cap/],
    ['a body shorter than its Content-Length', '/short-body.jpg', /before the body was complete|ended after/],
    ['a stalled download', '/stall.jpg', /stalled/],
    ['an HTTP error', '/missing.jpg', /HTTP 404/],
    ['a redirect to a non-http URL', '/to-file', /file: URLs are not downloaded/],
    ['a redirect loop', '/loop', /more than 5 redirects/],
  ])('refuses %s', async (_label, pathname, reason) => {
    const p = local();
    const url = `${server.url}${pathname}`;
    refused(await picture(p, url, '/media/test-page'), reason);
    expect(p.stats().refused).toBe(1);
    expect(p.lines).toHaveLength(1);
    expect(p.lines[0]).toContain(url);
    expect(p.lines[0]).toContain('/media/test-page');
    expect(p.refused()).toEqual([expect.objectContaining({ url, pages: ['/media/test-page'] })]);
  });

  it('names every page that asks for a refused image, though its outcome is shared within a build', async () => {
    const p = local();
    const url = `${server.url}/html.jpg`;
    refused(await picture(p, url, '/first-page'), /HTML page/);
    refused(await picture(p, url, '/second-page'), /HTML page/);
    expect(p.refused()).toEqual([expect.objectContaining({ url, pages: ['/first-page', '/second-page'] })]);
  });

  it('retries a transient failure (503) and then uses the image', async () => {
    const p = local({ retries: 2 });
    expect((await picture(p, `${server.url}/flaky.jpg`)).ok).toBe(true);
    expect(p.stats()).toMatchObject({ retries: 1, downloads: 1, refused: 0 });
    // A permanent refusal is not retried.
    const q = local({ retries: 2 });
    refused(await picture(q, `${server.url}/missing-too.jpg`), /HTTP 404/);
    expect(q.stats().retries).toBe(0);
  });

  it('refuses an image over a lowered pixel cap', async () => {
    const p = local({ maxPixels: 10_000 });
    refused(await picture(p, `${server.url}/ok.jpg?cap`), /320x240 is over the pixel cap/);
  });

  it('refuses a redirect to a host the policy refuses, without contacting it', async () => {
    const before = other.requests.length;
    const p = local();
    refused(await picture(p, `${server.url}/to-localhost`), /host localhost resolves to .*loopback/);
    expect(other.requests.length).toBe(before);
    // Listed in PRESSROOM_IMAGE_HOSTS while the API itself is on loopback: allowed.
    const allowed = local({ imageHosts: ['localhost'] });
    expect((await picture(allowed, `${server.url}/to-localhost`)).ok).toBe(true);
    expect(other.requests.length).toBe(before + 1);
  });

  it('refuses loopback, private and link-local addresses when the API does not live there', async () => {
    const p = testPipeline({
      apiUrl: 'https://api.example.test',
      cacheDir: cache.dir,
      lookup: stubLookup,
      imageHosts: ['intranet.example.test'],
    });
    const before = server.requests.length;
    const cases: Array<[string, RegExp]> = [
      [`${server.url}/ok.jpg`, /127\.0\.0\.1, a loopback address/],
      [`${server.url.replace('127.0.0.1', '[::1]')}/ok.jpg`, /::1, a loopback address/],
      ['http://[::ffff:127.0.0.1]/ok.jpg', /loopback/],
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      ['http://metadata.example.test/x.jpg', /169\.254\.169\.254, a link-local address/],
      ['http://intranet.example.test/x.jpg', /10\.1\.2\.3, a private address/], // listed, but the API is public
      ['http://mixed.example.test/x.jpg', /192\.168\.1\.5, a private address/],
      ['http://v6-loopback.example.test/x.jpg', /loopback/],
      ['http://0.0.0.0/x.jpg', /reserved/],
      ['http://nowhere.example.test/x.jpg', /does not resolve/],
    ];
    for (const [url, reason] of cases) refused(await picture(p, url), reason);
    expect(server.requests.length).toBe(before);
    expect(p.stats().refused).toBe(cases.length);
    expect(p.stats().downloads).toBe(0);
  });

  it('refuses URLs with credentials and non-http schemes', async () => {
    const p = local();
    refused(await picture(p, `http://user:pass@127.0.0.1:1/x.jpg`), /user name or password/);
    // Not an http(s) URL: never even a candidate original (media-urls.ts), so nothing to show.
    expect(await picture(p, 'ftp://127.0.0.1/x.jpg')).toMatchObject({ ok: false, status: 'missing' });
  });

  it('a refused download is null, and a refused kit member is left out of the zip', async () => {
    const p = local();
    expect(await p.download({ type: 'document', title: 'Fake', url: `${server.url}/html.jpg` }, { page: '/kit' })).toBeNull();
    const pdf = await p.download({ type: 'document', title: 'Fact sheet.pdf', url: `${server.url}/doc.pdf` });
    expect(pdf).toMatchObject({ type: 'PDF document', mime: 'application/pdf', filename: 'Fact sheet.pdf' });
    const kit = await p.mediaKitZip({
      id: 1,
      title: 'Kit',
      media: [
        { type: 'document', title: 'Fact sheet.pdf', url: `${server.url}/doc.pdf` },
        { type: 'image', title: 'Bomb', sizes: sizes(`${server.url}/bomb.png`, { original: [30000, 30000] }) },
      ],
    });
    expect(kit?.files).toBe(1);
    expect(p.stats().refused).toBe(2);
  });

  it('a refusal as a picture does not refuse the same URL as a download, in this build or the next', async () => {
    const url = `${server.url}/doc.pdf?as-both`;
    const p = local();
    refused(await picture(p, url), /PDF document, not an accepted image/);
    expect(await p.download({ type: 'document', title: 'Sheet', url })).toMatchObject({ type: 'PDF document' });
    const next = local();
    expect(await next.download({ type: 'document', title: 'Sheet', url })).toMatchObject({ type: 'PDF document' });
    refused(await picture(next, url), /PDF document, not an accepted image/);
    expect(next.stats()).toMatchObject({ downloads: 0, notModified: 2 });
  });

  it('remembers a refusal: the next build gets a 304 and runs no decode', async () => {
    const first = local();
    refused(await picture(first, `${server.url}/html.jpg`), /HTML/);
    refused(await picture(first, `${server.url}/bomb.png`), /pixel cap/);
    const second = local();
    refused(await picture(second, `${server.url}/html.jpg`), /HTML/);
    refused(await picture(second, `${server.url}/bomb.png`), /pixel cap/);
    expect(second.stats()).toMatchObject({ downloads: 0, notModified: 2, sharpOps: 0, refused: 2 });
  });
});

describe('host policy', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['2002:7f00:1::', 'loopback'],
    ['::7f00:1', 'reserved'], // IPv4-compatible ::127.0.0.1, as URL parsing spells it
    ['64:ff9b:1::a9fe:a9fe', 'reserved'], // local-use NAT64 of 169.254.169.254
    ['::ffff:0:a9fe:a9fe', 'reserved'], // IPv4-translated 169.254.169.254
    ['2606:4700::1111', 'public'],
    // The ranges a hand-kept list missed, checked against ipaddr.js's table:
    ['64:ff9b:0:0:0:0:7f00:1', 'loopback'], // well-known NAT64 of 127.0.0.1, uncompressed
    ['64:ff9b::127.0.0.1', 'loopback'], // the same, with a dotted tail
    ['64:ff9b::a9fe:a9fe', 'link-local'], // well-known NAT64 of 169.254.169.254
    ['64:ff9b::8.8.8.8', 'public'],
    ['2001::1', 'reserved'], // Teredo 2001::/32
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // a real Teredo address
    ['2001:2::1', 'reserved'], // benchmarking 2001:2::/48
    ['2001:10::1', 'reserved'], // ORCHID 2001:10::/28
    ['2001:20::1', 'reserved'], // ORCHIDv2 2001:20::/28
    ['192.88.99.1', 'reserved'], // 6to4 relay anycast 192.88.99.0/24
    // Every spelling of an address is read before it is classified.
    ['0177.0.0.1', 'loopback'], // octal
    ['0x7f000001', 'loopback'], // one hex number
    ['127.1', 'loopback'], // short form
    ['2130706433', 'loopback'], // one decimal number
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'], // IPv4-mapped, uncompressed
    ['::127.0.0.1', 'reserved'], // IPv4-compatible (deprecated), dotted: not IPv4-mapped
    ['[::1]', 'loopback'],
    ['FE80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'], // a zone id
    ['2606:4700::1111%eth0', 'reserved'], // a zone id never makes an address public
    ['2002:c000:201::', 'reserved'], // 6to4 of 192.0.2.1 (documentation)
    ['2002:808:808::1', 'public'], // 6to4 of 8.8.8.8
    ['4000::1', 'reserved'], // outside 2000::/3, the only global unicast block
    ['5f00::1', 'reserved'], // SRv6 SIDs
    ['255.255.255.255', 'reserved'],
    ['::ffff:0177.0.0.1', 'reserved'], // not an address: octal inside IPv6 is not a spelling anything accepts
    ['media.example.test', 'reserved'], // not an address at all
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('checks an address literal in any spelling as the address it is, without asking DNS', async () => {
    const asked: string[] = [];
    const policy = createHostPolicy({ apiUrl: 'https://api.example.test', lookup: async (host) => (asked.push(host), [PUBLIC_ADDRESS]) });
    for (const literal of ['0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', '64:ff9b:0:0:0:0:7f00:1']) {
      await expect(policy.connectAddresses(literal), literal).rejects.toThrow(/a loopback address/);
    }
    await expect(policy.connectAddresses('fe80::1%eth0')).rejects.toThrow(/fe80::1%eth0, a link-local address/);
    // What is handed to the socket is the one spelling that was checked.
    expect(await policy.connectAddresses('0x08080808')).toEqual(['8.8.8.8']);
    expect(asked).toEqual([]);
    await expect(policy.check(new URL('http://[64:ff9b::7f00:1]/x.jpg'))).rejects.toThrow(/64:ff9b::7f00:1, a loopback address/);
    await expect(policy.check(new URL('http://0x7f.1/x.jpg'))).rejects.toThrow(/127\.0\.0\.1, a loopback address/);
  });

  it('refuses a host whose DNS answer is a Teredo, NAT64 or 6to4 address of a non-public network', async () => {
    const answers: Record<string, string[]> = {
      'teredo.example.test': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      'nat64.example.test': ['64:ff9b::a9fe:a9fe'],
      'sixtofour.example.test': ['2002:a00:1::1'],
    };
    const policy = createHostPolicy({ apiUrl: 'https://api.example.test', lookup: async (host) => answers[host] ?? [] });
    await expect(policy.check(new URL('https://teredo.example.test/x.jpg'))).rejects.toThrow(/a reserved address/);
    await expect(policy.check(new URL('https://nat64.example.test/x.jpg'))).rejects.toThrow(/a link-local address/);
    await expect(policy.check(new URL('https://sixtofour.example.test/x.jpg'))).rejects.toThrow(/a private address/);
  });

  it('skips the address check in snapshot builds, where no socket is opened', async () => {
    const policy = createHostPolicy({ apiUrl: 'https://api.example.test', checkAddresses: false, lookup: stubLookup });
    await expect(policy.check(new URL('http://intranet.example.test/x.jpg'))).resolves.toBeUndefined();
    await expect(policy.check(new URL('ftp://intranet.example.test/x.jpg'))).rejects.toThrow(/ftp:/);
  });

  it('allows a public host that is not listed', async () => {
    const policy = createHostPolicy({ apiUrl: 'https://api.example.test', lookup: stubLookup });
    await expect(policy.check(new URL('https://cdn.example.test/x.jpg'))).resolves.toBeUndefined();
  });

  it("allows an intranet API's own origin, not every port of its machine", async () => {
    const policy = createHostPolicy({ apiUrl: 'http://10.0.0.5:8080/', lookup: stubLookup });
    await expect(policy.check(new URL('http://10.0.0.5:8080/media/x.jpg'))).resolves.toBeUndefined();
    for (const other of ['http://10.0.0.5/x.jpg', 'http://10.0.0.5:6379/', 'https://10.0.0.5:8080/x.jpg'])
      await expect(policy.check(new URL(other)), other).rejects.toThrow(/10\.0\.0\.5, a private address/);
    const https = createHostPolicy({ apiUrl: 'https://10.0.0.5/', lookup: stubLookup });
    await expect(https.check(new URL('https://10.0.0.5:443/x.jpg'))).resolves.toBeUndefined();
  });
});

/** `text` with a byte order mark, in each encoding a BOM names. */
const ENCODINGS: Record<string, (text: string) => Buffer> = {
  'UTF-8': (text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
  'UTF-16LE': (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
  'UTF-16BE': (text) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
  'UTF-32LE': (text) =>
    Buffer.concat([
      Buffer.from([0xff, 0xfe, 0x00, 0x00]),
      ...[...text].map((c) => Buffer.from(new Uint32Array([c.codePointAt(0)!]).buffer)),
    ]),
  'UTF-32BE': (text) =>
    Buffer.concat([
      Buffer.from([0x00, 0x00, 0xfe, 0xff]),
      ...[...text].map((c) => {
        const b = Buffer.alloc(4);
        b.writeUInt32BE(c.codePointAt(0)!);
        return b;
      }),
    ]),
};
const DOCUMENTS: Record<string, [string, 'html' | 'svg' | 'xml', RegExp]> = {
  HTML: ['<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>', 'html', /HTML page/],
  SVG: ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'svg', /SVG image/],
  XML: ['<?xml version="1.0" encoding="UTF-16"?><feed><entry>x</entry></feed>', 'xml', /XML document/],
};
const MARKUP_CASES = Object.entries(DOCUMENTS).flatMap(([doc, [text, format, label]]) =>
  Object.entries(ENCODINGS).map(([encoding, encode]) => ({
    name: `${doc} in ${encoding}`,
    path: `/${doc}-${encoding}`.toLowerCase(),
    bytes: encode(text),
    format,
    label,
  })),
);

describe('text is never media: byte order marks', () => {
  it.each(MARKUP_CASES.map((c) => [c.name, c.bytes, c.format] as const))('sniffs %s as what it is', (_name, bytes, format) => {
    expect(sniff(bytes)).toBe(format);
  });

  it('sniffs other text with a BOM as text, whatever binary signature follows the mark', () => {
    expect(sniff(ENCODINGS['UTF-16LE']!('Hello, journalists'))).toBe('text');
    expect(sniff(ENCODINGS['UTF-32LE']!('%PDF-1.4'))).toBe('text');
    expect(sniff(Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xd8, 0xff, 0xe0]))).toBe('text');
    expect(sniff(Buffer.from([0xff, 0xfe]))).toBe('text');
  });

  it('still knows MPEG audio by a whole frame or ID3 header, and not by its first bytes alone', () => {
    expect(sniff(Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0]))).toBe('mp3'); // MPEG-1 layer III, 128 kbit/s, 44.1 kHz
    expect(sniff(Buffer.from([0xff, 0xf3, 0x64, 0xc4, 0, 0]))).toBe('mp3'); // MPEG-2 layer III
    expect(sniff(Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0x0a, 0x7f])]))).toBe('mp3');
    expect(sniff(Buffer.from('ID3 tags are metadata, this is text'))).toBe('unknown');
    expect(sniff(Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).not.toBe('mp3'); // "<" in UTF-16LE
    expect(sniff(Buffer.from([0xff, 0xef, 0x90, 0x64]))).toBe('unknown'); // version bits 01: reserved
    expect(sniff(Buffer.from([0xff, 0xf9, 0x90, 0x64]))).toBe('unknown'); // layer bits 00: reserved
    expect(sniff(Buffer.from([0xff, 0xfb, 0xf0, 0x64]))).toBe('unknown'); // bit rate 1111: bad
    expect(sniff(Buffer.from([0xff, 0xfb, 0x9c, 0x64]))).toBe('unknown'); // sample rate 11: reserved
  });

  describe('through the pipeline, for every kind of media', () => {
    let server: TinyServer;
    let cache: Awaited<ReturnType<typeof tempDir>>;
    const bodies = new Map(MARKUP_CASES.map((c) => [c.path, c.bytes]));

    beforeAll(async () => {
      cache = await tempDir('bom');
      server = await tinyServer((req, res) => {
        const body = bodies.get((req.url ?? '').split('?')[0]!);
        if (!body) return void res.writeHead(404).end();
        // A server that claims a media type: only the bytes decide.
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': body.length }).end(body);
      });
    });

    afterAll(async () => {
      await server?.close();
      await cache?.remove();
    });

    const KINDS: Record<string, (p: ImagePipeline, url: string) => Promise<unknown>> = {
      'a picture': (p, url) => p.picture({ sizes: sizes(url, { original: [320, 240] }) }, { page: '/media/' }),
      'an image download': (p, url) =>
        p.download({ type: 'image', title: 'Photo', sizes: sizes(`${url}?image`, { original: [320, 240] }) }, { page: '/media/' }),
      'a document': (p, url) => p.download({ type: 'document', title: 'Fact sheet', url: `${url}?document` }, { page: '/media/' }),
      'a sound': (p, url) => p.download({ type: 'sound', title: 'Interview', url: `${url}?sound` }, { page: '/media/' }),
      'a movie': (p, url) => p.download({ type: 'movie', title: 'Clip', mp4_url: `${url}?movie` }, { page: '/media/' }),
      "a release's PDF": (p, url) => p.downloadUrl(`${url}?pdf`, { title: 'Release', page: '/media/' }),
    };

    it.each(Object.keys(KINDS))('refuses HTML, SVG and XML in every BOM encoding as %s', async (kind) => {
      const p = testPipeline({ apiUrl: server.url, cacheDir: cache.dir, retries: 0 });
      for (const c of MARKUP_CASES) {
        const result = await KINDS[kind]!(p, `${server.url}${c.path}`);
        expect(result === null || (result as Picture).ok === false, `${c.name} as ${kind}`).toBe(true);
      }
      const refused = p.refused();
      expect(refused.map((r) => r.reason)).toHaveLength(MARKUP_CASES.length);
      for (const [i, c] of MARKUP_CASES.entries()) expect(refused[i]!.reason, c.name).toMatch(c.label);
      expect(p.published().size).toBe(0);
    });
  });
});
