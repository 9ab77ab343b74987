import { markdownFence } from '../markdown-fence';
import { escapeHtml } from './escape-html';
import type { ProcessedContent } from './processed-content';

/** text/plain, JSON and XML come back verbatim, in a fenced block tagged with the language. */
export function processPlain(text: string, language: 'json' | 'xml' | 'text'): ProcessedContent {
  let body = text;
  if (language === 'json') {
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not valid JSON after all: show it as it came.
    }
  }
  const f = markdownFence(body);
  const tag = language === 'text' ? '' : language;
  return {
    markdown: `${f}${tag}\n${body}\n${f}`,
    text: body,
    html: `<pre>${escapeHtml(body)}</pre>`,
    rawHtml: '',
    links: [],
    metadata: {},
    timing: {},
  };
}
