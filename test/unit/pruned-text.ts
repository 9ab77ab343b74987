import { parsePage } from '../../src/scrape/html/parse-document';
import { toText } from '../../src/scrape/html/to-text';

/** The text of `<body>${body}</body>` after `prune` ran on the body, as the text format reads it. */
export function prunedText(body: string, prune: (root: Element) => void): string {
  const document = parsePage(`<html><body>${body}</body></html>`);
  prune(document.body);
  return toText(document.body);
}
