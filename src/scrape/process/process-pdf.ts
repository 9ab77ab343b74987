import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { escapeHtml } from './escape-html';
import type { ProcessedContent } from './processed-content';

/** A PDF's text, page by page, through pdf.js. Markdown separates pages with a rule. */
export async function processPdf(bytes: Uint8Array): Promise<ProcessedContent> {
  const started = performance.now();
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const [{ totalPages, text }, meta] = await Promise.all([extractText(pdf, { mergePages: false }), getMeta(pdf)]);
    const pages = text.map((page) => page.replace(/[ \t]+\n/g, '\n').trim());
    const info = (meta.info ?? {}) as Record<string, unknown>;
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    return {
      markdown: pages.join('\n\n---\n\n'),
      text: pages.join('\n\n'),
      html: pages.map((p) => `<section class="pdf-page"><pre>${escapeHtml(p)}</pre></section>`).join('\n'),
      rawHtml: '',
      links: [],
      metadata: { ...(title && { title }), numPages: totalPages },
      timing: { convertMs: Math.round(performance.now() - started) },
    };
  } finally {
    await pdf.destroy();
  }
}
