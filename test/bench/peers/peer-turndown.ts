import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { gfmTables } from './turndown-gfm-tables';

/**
 * The markdown converter the crawl peers use: turndown with the same GFM rules as ours (Joplin's,
 * with our linear table rule in place of its quadratic one), so a peer does the same conversion
 * work and the comparison is about crawling.
 */
export function peerTurndown(): TurndownService {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  turndown.use([highlightedCodeBlock, strikethrough, taskListItems]);
  gfmTables(turndown);
  return turndown;
}
