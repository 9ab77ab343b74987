import mammoth from 'mammoth';
import { AppError } from '../errors';

/** A Word document (DOCX) as HTML, which then goes through the same processing as a web page. */
export async function docxToHtml(bytes: Uint8Array, filename: string): Promise<{ html: string; warnings: string[] }> {
  try {
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    return { html: `<!doctype html><html><body>${result.value}</body></html>`, warnings: result.messages.filter((m) => m.type === 'warning').map((m) => m.message) };
  } catch (err) {
    throw new AppError('BAD_REQUEST', `${filename} is not a readable DOCX file: ${(err as Error).message}`, [{ path: 'file', message: 'not a DOCX file' }], { cause: err });
  }
}
