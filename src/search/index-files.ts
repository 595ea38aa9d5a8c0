/**
 * Writes the search bundle (`_search/`, see format.ts) for a built site: the
 * searchable pages read back from the HTML (documents.ts), one MiniSearch index
 * per language with that language's stemming (terms.ts), their text in chunks,
 * and the browser scripts (bundle.ts). File names carry a hash of their bytes,
 * so a CDN may cache them for ever; only `entry.js` keeps its name and is
 * written last. The same pages always give the same bytes.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { readSearchDocuments, type SearchDocument } from './documents.ts';
import { ENTRY_FILE, SEARCH_DIR, SEARCH_FORMAT, registration, type DocMeta, type SearchEntry } from './format.ts';
import { indexLanguage, indexOptions } from './terms.ts';
import { searchScripts } from './bundle.ts';

/** Text per chunk: a page of results loads a few small files rather than all text. */
const CHUNK_CHARS = 48_000;

export interface SearchIndexReport {
  documents: number;
  languages: string[];
  files: number;
  bytes: number;
  ms: number;
}

/** Builds `<siteDir>/_search/` from the site's pages (replacing any previous one). */
export async function writeSearchIndex(siteDir: string, { outputPath = path.join(siteDir, SEARCH_DIR) } = {}): Promise<SearchIndexReport> {
  const started = performance.now();
  const documents = await readSearchDocuments(siteDir);
  const files = new Map<string, string>();
  const add = (stem: string, body: string) => {
    const name = `${stem}.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.js`;
    files.set(name, body);
    return name;
  };

  const chunks = textChunks(documents);
  const text = chunks.map((texts, n) => add(`text-${n}`, registration('text', String(n), texts)));
  const chunkOf = chunks.flatMap((texts, n) => texts.map(() => n));
  const docs: DocMeta[] = documents.map((d, id) => ({
    url: d.url,
    title: d.title,
    type: d.type,
    lang: d.lang,
    date: d.date,
    year: d.year,
    tags: d.tags,
    chunk: chunkOf[id]!,
  }));

  const byLanguage = new Map<string, number[]>();
  documents.forEach((d, id) => byLanguage.set(indexLanguage(d.lang), [...(byLanguage.get(indexLanguage(d.lang)) ?? []), id]));
  const indexes: Record<string, string> = {};
  for (const lang of [...byLanguage.keys()].sort()) {
    const index = new MiniSearch(indexOptions(lang));
    index.addAll(
      byLanguage
        .get(lang)!
        .map((id) => ({ id, title: documents[id]!.title, tags: documents[id]!.tags.join(' '), text: documents[id]!.text })),
    );
    indexes[lang] = add(`index-${lang}`, registration('index', lang, index.toJSON()));
  }

  const scripts = await searchScripts();
  files.set(scripts.engine.name, scripts.engine.code);
  files.set(scripts.controller.name, scripts.controller.code);
  const entry: SearchEntry = {
    format: SEARCH_FORMAT,
    engine: scripts.engine.name,
    docs: add('docs', registration('docs', 'all', docs)),
    indexes,
    text,
  };

  await rm(outputPath, { recursive: true, force: true });
  await mkdir(outputPath, { recursive: true });
  let bytes = 0;
  for (const [name, body] of files) {
    await writeFile(path.join(outputPath, name), body);
    bytes += Buffer.byteLength(body);
  }
  const entryBody = registration('entry', 'entry', entry);
  await writeFile(path.join(outputPath, ENTRY_FILE), entryBody);
  bytes += Buffer.byteLength(entryBody);
  return {
    documents: documents.length,
    languages: Object.keys(indexes),
    files: (await readdir(outputPath)).length,
    bytes,
    ms: Math.round(performance.now() - started),
  };
}

/** The documents' texts in order, cut into chunks of about CHUNK_CHARS. */
function textChunks(documents: readonly SearchDocument[]): string[][] {
  const chunks: string[][] = [];
  let size = Infinity;
  for (const doc of documents) {
    if (size >= CHUNK_CHARS) {
      chunks.push([]);
      size = 0;
    }
    chunks.at(-1)!.push(doc.text);
    size += doc.text.length;
  }
  return chunks;
}
