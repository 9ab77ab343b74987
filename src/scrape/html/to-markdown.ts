import { highlightedCodeBlock, strikethrough } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { markdownFence } from '../markdown-fence';
import { gfmTables } from './gfm-tables';

/**
 * Text that any of turndown's escapes would change (its list, each pattern matched at the start
 * where turndown anchors it). Most text nodes contain none of these characters, and turndown
 * runs a dozen replaces over every one of them.
 */
const ESCAPABLE = /[\\*`[\]_]|^(?:[-=>]|\+ |#{1,6} |~~~|\d+\. )/;

const isCheckbox = (node: HTMLElement): boolean =>
  node.nodeName === 'INPUT' ? node.getAttribute('type')?.toLowerCase() === 'checkbox' : node.getAttribute('role') === 'checkbox';

/** A checkbox that marks a list item as a task: in the `<li>`, or in a label or span of it. */
const marksListItem = (node: HTMLElement): boolean => {
  const parent = node.parentNode;
  return parent?.nodeName === 'LI' || ((parent?.nodeName === 'LABEL' || parent?.nodeName === 'SPAN') && parent.parentNode?.nodeName === 'LI');
};

const isChecked = (node: HTMLElement): boolean => (node.nodeName === 'INPUT' ? node.hasAttribute('checked') : node.getAttribute('aria-checked') === 'true');

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.use([highlightedCodeBlock, strikethrough]);
  // GFM task items. The plugin's rule reads the `checked` property, which linkedom's inputs
  // lack, so every box came out unchecked; the attribute is what the page says.
  service.addRule('task-list-items', {
    filter: (node) => isCheckbox(node) && marksListItem(node),
    replacement: (_content, node) => `${isChecked(node as HTMLElement) ? '[x]' : '[ ]'} `,
  });
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

/**
 * GitHub-flavoured markdown of an element's content (a parsed DOM, so turndown does not parse
 * again). Merges adjacent text nodes first, as a parser leaves them: cleaning removes elements
 * between text nodes, and turndown's whitespace collapsing, which assumes none are adjacent, kept
 * a space of each whitespace-only one after an image (runs of dozens of spaces on real pages).
 */
export function toMarkdown(root: Element): string {
  root.normalize();
  return turndown.turndown(root as unknown as TurndownService.Node).replace(/\n{3,}/g, '\n\n').trim();
}
