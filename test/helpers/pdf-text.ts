import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The text of a PDF, extracted with poppler's pdftotext (the standard tool); `layout` keeps columns. */
export async function pdfText(bytes: ArrayBuffer | Uint8Array, options: { layout?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-pdf-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), bytes instanceof Uint8Array ? bytes : Buffer.from(bytes));
    const args = [...(options.layout ? ['-layout'] : []), join(dir, 'doc.pdf'), '-'];
    return (await promisify(execFile)('pdftotext', args)).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
