import type { AnyNode } from 'domhandler';

/** Below this much visible text a page that runs scripts is taken for a client-rendered shell. */
const MIN_STATIC_TEXT = 200;

/**
 * Whether the text under `root`, whitespace runs counted as one space, reaches `min` characters.
 * Stops reading as soon as it does, rather than collecting the whole page's text.
 */
function hasText(root: AnyNode, min: number): boolean {
  let seen = '';
  const walk = (node: AnyNode): boolean => {
    if (node.type === 'text') {
      seen = (seen + node.data).replace(/\s+/g, ' ');
      return seen.trim().length >= min;
    }
    return 'children' in node && node.children.some(walk);
  };
  return walk(root);
}

/**
 * True when static HTML is a client-side app that has not rendered yet: scripts that would
 * produce the content, and little visible text without them (in the cleaned body, if any).
 */
export function isAppShell(scriptCount: number, cleanedBody: AnyNode | undefined): boolean {
  return scriptCount > 0 && !(cleanedBody && hasText(cleanedBody, MIN_STATIC_TEXT));
}
