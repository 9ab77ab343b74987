import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { markdownFence } from '../markdown-fence';
import { gfmTables } from './gfm-tables';

/**
 * Text that any of turndown's escapes would change (its list, each pattern matched at the start
 * where turndown anchors it). Most text nodes contain none of these characters, and turndown
 * runs a dozen replaces over every one of them.
 */
const ESCAPABLE = /[\\*`[\]_]|^(?:[-=>]|\+ |#{1,6} |~~~|\d+\. )/;

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.use([highlightedCodeBlock, strikethrough, taskListItems]);
  gfmTables(service);
  const escape = service.escape.bind(service);
  service.escape = (text) => (ESCAPABLE.test(text) ? escape(text) : text);
  // An <img> without src converts to nothing useful.
  service.addRule('drop-empty-images', {
    filter: (node) => node.nodeName === 'IMG' && !node.getAttribute('src'),
    replacement: () => '',
  });
  // Turndown fences only <pre><code>; a bare <pre> would otherwise become indented prose.
  service.addRule('bare-pre', {
    filter: (node) => node.nodeName === 'PRE' && node.firstElementChild?.nodeName !== 'CODE',
    replacement: (_content, node) => {
      const text = (node as HTMLElement).textContent ?? '';
      const fence = markdownFence(text);
      return `\n\n${fence}\n${text.replace(/\n$/, '')}\n${fence}\n\n`;
    },
  });
  return service;
}

const turndown = createTurndown();

/** GitHub-flavoured markdown of an element's content (a parsed DOM, so turndown does not parse again). */
export function toMarkdown(root: Element): string {
  return turndown.turndown(root as unknown as TurndownService.Node).replace(/\n{3,}/g, '\n\n').trim();
}
