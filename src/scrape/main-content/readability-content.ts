import { Readability } from '@mozilla/readability';
import { selectOne } from '../html/css-selectors';

/**
 * Readability's article element. Readability lifts a heading that repeats the title out of the
 * content; it is put back, since the page's own heading is part of what it says.
 */
export function readabilityContent(document: Document): Element | null {
  const heading = selectOne(document, 'h1');
  const article = new Readability<Element>(document, { keepClasses: false, charThreshold: 0, serializer: (el) => el as Element }).parse();
  if (!article?.content) return null;
  const title = heading?.textContent?.trim();
  if (heading && title && !article.textContent?.includes(title)) article.content.insertBefore(heading, article.content.firstChild);
  return article.content;
}
