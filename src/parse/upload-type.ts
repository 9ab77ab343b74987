import { AppError } from '../errors';

/** MIME type of a Word document (DOCX). */
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  docx: DOCX_TYPE,
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  xml: 'application/xml',
};

/** Types POST /v2/parse turns into a document. */
const ACCEPTED = new Set(Object.values(BY_EXTENSION));

/**
 * The MIME type of an uploaded file: the one sent with it when it is one we parse, else by its
 * extension (clients often send application/octet-stream). Anything else is refused.
 */
export function uploadType(filename: string, sentType: string): string {
  const sent = sentType.split(';')[0]!.trim().toLowerCase();
  if (ACCEPTED.has(sent)) return sent;
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  const byName = extension ? BY_EXTENSION[extension] : undefined;
  if (byName) return byName;
  throw new AppError(
    'BAD_REQUEST',
    `Cannot parse ${filename} (${sent || 'no type'}): send a PDF, HTML, DOCX, plain text, markdown, JSON or XML file`,
    [{ path: 'file', message: 'unsupported file type' }],
  );
}
