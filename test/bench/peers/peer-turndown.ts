import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { gfmTables } from './turndown-gfm-tables';

/**
 * The markdown converter the crawl peers use: turndown with Joplin's GFM rules, and tables in
 * the shape ours writes (a linear rule in place of Joplin's quadratic one), the usual way a
 * JavaScript crawler writes markdown.
 */
export function peerTurndown(): TurndownService {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  turndown.use([highlightedCodeBlock, strikethrough, taskListItems]);
  gfmTables(turndown);
  return turndown;
}
