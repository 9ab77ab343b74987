/** Below this much visible text a page that runs scripts is taken for a client-rendered shell. */
const MIN_STATIC_TEXT = 200;

const TEXT_NODE = 3;

/**
 * Whether the text under `root`, whitespace runs counted as one space, reaches `min` characters.
 * Stops reading as soon as it does, rather than collecting the whole page's text.
 */
function hasText(root: Node, min: number): boolean {
  let seen = '';
  const walk = (node: Node): boolean => {
    if (node.nodeType === TEXT_NODE) {
      seen = (seen + (node as Text).data).replace(/\s+/g, ' ');
      return seen.trim().length >= min;
    }
    for (let child = node.firstChild; child; child = child.nextSibling) if (walk(child)) return true;
    return false;
  };
  return walk(root);
}

/**
 * True when static HTML is a client-side app that has not rendered yet: scripts that would
 * produce the content, and little visible text without them (in the cleaned body).
 */
export function isAppShell(scriptCount: number, cleanedBody: Node): boolean {
  return scriptCount > 0 && !hasText(cleanedBody, MIN_STATIC_TEXT);
}
