import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { PdfAssetSpec } from '../model/types.ts';
import { hsl } from './image-svg.ts';
import { Rng, hash32 } from '../model/random.ts';

/** Every document carries this instant as its creation and modification date. */
export const PDF_FIXED_DATE = new Date('2020-01-01T00:00:00.000Z');

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const TITLE_SIZE = 20;
const TITLE_LEADING = 26;
const BODY_SIZE = 11;
const BODY_LEADING = 15.5;
const PARAGRAPH_GAP = 8;
const FOOTER_SIZE = 8;
const MAX_PAGES = 200;

/**
 * A small, valid A4 PDF: an accent bar, the title as a heading, paragraphs
 * wrapped to the page in Helvetica, and page numbers. No random document id
 * and fixed dates, so the bytes are the same in every run.
 */
export async function renderPdf(spec: PdfAssetSpec): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const title = printable(spec.title, regular) || 'Untitled';
  doc.setTitle(title);
  doc.setAuthor('Newsroom emulator');
  doc.setCreator('pressroom-static emulator');
  doc.setProducer('pressroom-static emulator');
  doc.setCreationDate(PDF_FIXED_DATE);
  doc.setModificationDate(PDF_FIXED_DATE);

  const accent = hexToRgb(hsl(new Rng(hash32(spec.seed, 0x9df)).range(0, 360), 60, 42));
  const [pageWidth, pageHeight] = A4;
  const textWidth = pageWidth - 2 * MARGIN;
  const pages: PDFPage[] = [];
  let page = doc.addPage(A4);
  pages.push(page);
  let y = pageHeight - MARGIN;

  page.drawRectangle({ x: 0, y: pageHeight - 10, width: pageWidth, height: 10, color: accent });
  for (const line of wrapText(title, bold, TITLE_SIZE, textWidth)) {
    y -= TITLE_LEADING;
    page.drawText(line, { x: MARGIN, y, font: bold, size: TITLE_SIZE, color: rgb(0.1, 0.1, 0.12) });
  }
  y -= 10;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: pageWidth - MARGIN, y }, thickness: 1, color: accent });
  y -= 8;

  for (const paragraph of spec.paragraphs) {
    const lines = wrapText(printable(paragraph, regular), regular, BODY_SIZE, textWidth);
    for (const line of lines) {
      if (y - BODY_LEADING < MARGIN + 20) {
        if (pages.length >= MAX_PAGES) break;
        page = doc.addPage(A4);
        pages.push(page);
        y = pageHeight - MARGIN;
      }
      y -= BODY_LEADING;
      page.drawText(line, { x: MARGIN, y, font: regular, size: BODY_SIZE, color: rgb(0.2, 0.2, 0.22) });
    }
    y -= PARAGRAPH_GAP;
  }

  pages.forEach((p, i) => {
    const footer = `${title.length > 70 ? `${title.slice(0, 69)}...` : title}  -  page ${i + 1} of ${pages.length}`;
    p.drawText(footer, { x: MARGIN, y: MARGIN / 2, font: regular, size: FOOTER_SIZE, color: rgb(0.5, 0.5, 0.52) });
  });

  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/**
 * Text the standard Helvetica font can encode (WinAnsi): whitespace collapsed
 * to single spaces, typographic quotes kept where WinAnsi has them, and any
 * other character replaced by `?`.
 */
function printable(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  return Array.from(text.replace(/\s+/g, ' ').trim())
    .map((char) => (supported.has(char.codePointAt(0) ?? 0) ? char : '?'))
    .join('');
}

/** Greedy word wrap by measured width; words wider than a line are broken by character. */
function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= maxWidth;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const char of Array.from(word)) {
      if (line && !fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function hexToRgb(hex: string) {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}
