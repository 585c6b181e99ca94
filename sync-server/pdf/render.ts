import PDFDocument from 'pdfkit';
import type { RootContent } from 'mdast';
import { degradedNote, plainText } from '../../shared/markdown';
import type { StoredPage } from '../docs/revision-store';
import type { MarkdownService, PdfBody } from '../markdown/service';

/**
 * Renders pages of a revision to a PDF with pdfkit: each document page starts
 * with its title, then its markdown as headings, paragraphs, lists, quotes
 * and code blocks. Text uses the standard PDF fonts (no font files to ship),
 * which cover Latin-1; other characters are replaced by pdfkit. The markdown
 * is parsed by the markdown service (parse pool, cached per text); a page too
 * complex to format is printed as plain monospaced text under a note.
 */
export async function renderPdf(
  title: string,
  pages: readonly StoredPage[],
  markdown: MarkdownService,
): Promise<Buffer> {
  const documents: StoredPage[] = [];
  const collect = (list: readonly StoredPage[]) => {
    for (const page of list) {
      if (page.type === 'document') documents.push(page);
      collect(page.pages ?? []);
    }
  };
  collect(pages);
  const parsed = await Promise.all(
    documents.map((page) => markdown.pdf(typeof page.markdown === 'string' ? page.markdown : '')),
  );
  const bodies = new Map(documents.map((page, i) => [page, parsed[i]!]));
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Creator: 'Folio' }, bufferPages: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  let first = true;
  const walk = (list: readonly StoredPage[]) => {
    for (const page of list) {
      if (page.type === 'document') {
        if (!first) doc.addPage();
        first = false;
        renderPage(doc, page, bodies.get(page)!);
      } else if (page.type === 'group' && typeof page.title === 'string') {
        if (!first) doc.moveDown();
        doc.font('Helvetica-Bold').fontSize(11).fillColor('#666').text(page.title.toUpperCase()).fillColor('black');
      }
      walk(page.pages ?? []);
    }
  };
  walk(pages);
  if (first) doc.font('Helvetica').fontSize(12).text('This content has no pages.');
  doc.end();
  return done;
}

function renderPage(doc: PDFKit.PDFDocument, page: StoredPage, body: PdfBody): void {
  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .text(String(page.title ?? ''));
  if (typeof page.description === 'string' && page.description)
    doc.font('Helvetica-Oblique').fontSize(12).text(page.description);
  doc.moveDown(0.5);
  if ('blocks' in body) {
    for (const block of body.blocks) renderBlock(doc, block, 0);
    return;
  }
  doc.font('Helvetica-Oblique').fontSize(10).fillColor('#666').text(degradedNote(body.degraded)).fillColor('black');
  doc.moveDown(0.4).font('Courier').fontSize(9).text(body.text);
}

const HEADING_SIZES = [18, 16, 14, 13, 12, 12];

function renderBlock(doc: PDFKit.PDFDocument, node: RootContent, indent: number): void {
  const x = 56 + indent * 16;
  switch (node.type) {
    case 'heading':
      doc
        .moveDown(0.4)
        .font('Helvetica-Bold')
        .fontSize(HEADING_SIZES[node.depth - 1] ?? 12)
        .text(plainText(node), x);
      break;
    case 'paragraph':
      doc.font('Helvetica').fontSize(11).text(plainText(node), x).moveDown(0.4);
      break;
    case 'code':
      doc
        .font('Courier')
        .fontSize(9.5)
        .text(node.value, x + 8)
        .moveDown(0.4);
      break;
    case 'blockquote':
      for (const child of node.children) renderBlock(doc, child as RootContent, indent + 1);
      break;
    case 'list':
      node.children.forEach((item, i) => {
        const marker = node.ordered ? `${(node.start ?? 1) + i}.` : '•';
        doc
          .font('Helvetica')
          .fontSize(11)
          .text(`${marker} ${plainText(item)}`, x + 8)
          .moveDown(0.1);
      });
      doc.moveDown(0.3);
      break;
    case 'table':
      for (const row of node.children)
        doc
          .font('Helvetica')
          .fontSize(10)
          .text(row.children.map((c) => plainText(c)).join('  |  '), x);
      doc.moveDown(0.4);
      break;
    case 'thematicBreak':
      doc.moveDown(0.5);
      break;
    default:
      if ('children' in node || 'value' in node)
        doc.font('Helvetica').fontSize(11).text(plainText(node), x).moveDown(0.4);
  }
}
