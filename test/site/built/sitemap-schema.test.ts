/**
 * The sitemaps of the built demo site validate under the sitemaps.org schema (the XSD the
 * `sitemap` package ships) with libxml2 (libxml2-wasm), the news sitemap with Google's news
 * extension; and an empty urlset, which the build never writes, does not.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const siteDir = inject('siteDir');
const require = createRequire(import.meta.url);
const SITEMAP_XSD = path.join(path.dirname(require.resolve('sitemap/package.json')), 'schema', 'sitemap.xsd');
const NEWS_XSD = path.join(import.meta.dirname, '..', 'fixtures', 'sitemap-news.xsd');

/** The sitemaps.org schema, with Google's news extension imported for its `##other` elements. */
async function sitemapSchema(): Promise<string> {
  const xsd = await readFile(SITEMAP_XSD, 'utf8');
  return xsd.replace(
    /(<xsd:schema[^>]*>)/,
    `$1<xsd:import namespace="http://www.google.com/schemas/sitemap-news/0.9" schemaLocation="${pathToFileURL(NEWS_XSD).href}"/>`,
  );
}

let validator: XsdValidator;
const documents: XmlDocument[] = [];

beforeAll(async () => {
  const { xmlRegisterFsInputProviders } = await import('libxml2-wasm/lib/nodejs.mjs');
  xmlRegisterFsInputProviders();
  const schema = XmlDocument.fromString(await sitemapSchema(), { url: pathToFileURL(SITEMAP_XSD).href });
  documents.push(schema);
  validator = XsdValidator.fromDoc(schema);
});

afterAll(() => {
  validator?.dispose();
  for (const doc of documents) doc.dispose();
});

/** Validation errors of an XML text under the schema, [] when valid. */
function errorsOf(xml: string): string[] {
  const doc = XmlDocument.fromString(xml);
  documents.push(doc);
  try {
    validator.validate(doc);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

describe('sitemaps under the sitemaps.org schema', () => {
  it('validates the pages sitemap and the news sitemap', async () => {
    for (const file of ['sitemap-0.xml', 'sitemap-news.xml']) {
      expect(errorsOf(await readFile(path.join(siteDir, file), 'utf8')), file).toEqual([]);
    }
  });

  it('checks the news elements too: a news sitemap with a bad date or no title fails', async () => {
    const news = await readFile(path.join(siteDir, 'sitemap-news.xml'), 'utf8');
    expect(errorsOf(news.replace(/<news:publication_date>[^<]*/, '<news:publication_date>yesterday'))).not.toEqual([]);
    expect(errorsOf(news.replace(/<news:title>[^<]*<\/news:title>/, ''))).not.toEqual([]);
  });

  it('finds an empty urlset invalid (why no news sitemap is written without news)', () => {
    expect(errorsOf('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>')).not.toEqual([]);
  });
});
