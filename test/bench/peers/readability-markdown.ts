import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** Readability + turndown called directly on linkedom: the usual way to turn a page into markdown. */
export function readabilityMarkdown(): (html: string, url: string) => string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  return (html, url) => {
    const { document } = parseHTML(html);
    (document as unknown as { documentURI: string }).documentURI = url;
    const article = new Readability(document as unknown as Document).parse();
    return turndown.turndown(article?.content ?? '');
  };
}
