/** Below this much visible text outside its chrome, static HTML holds no content of its own. */
const MIN_OWN_TEXT = 200;

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/**
 * Page chrome by landmark: menus, asides, dialogs, search boxes, and the page's own banner and
 * footer. A `<header>` or `<footer>` inside a sectioning element is that section's (HTML-AAM
 * maps it to a landmark only when it is scoped to the body), so it counts as content.
 */
const CHROME_ELEMENTS = new Set(['nav', 'aside', 'dialog']);
const PAGE_SCOPED_CHROME = new Set(['header', 'footer']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'dialog', 'alertdialog', 'search']);
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

function isChrome(element: Element, inSection: boolean): boolean {
  const role = element.getAttribute('role');
  return CHROME_ELEMENTS.has(element.localName) || (role !== null && CHROME_ROLES.has(role)) || (!inSection && PAGE_SCOPED_CHROME.has(element.localName));
}

/**
 * The text under `root` outside page chrome and inside it, in characters with whitespace runs
 * counted as one space (per text node). Stops reading once `ownEnough` characters of its own are
 * seen, rather than collecting the whole page's text.
 */
function measureText(root: Node, ownEnough: number): { own: number; chrome: number } {
  const counts = { own: 0, chrome: 0 };
  const walk = (node: Node, inSection: boolean, inChrome: boolean): boolean => {
    if (node.nodeType === TEXT_NODE) {
      const length = (node as Text).data.replace(/\s+/g, ' ').trim().length;
      if (inChrome) counts.chrome += length;
      else counts.own += length;
      return counts.own >= ownEnough;
    }
    if (node.nodeType === ELEMENT_NODE && node !== root) {
      const element = node as Element;
      inChrome ||= isChrome(element, inSection);
      inSection ||= SECTIONING.has(element.localName);
    }
    for (let child = node.firstChild; child; child = child.nextSibling) if (walk(child, inSection, inChrome)) return true;
    return false;
  };
  walk(root, false, false);
  return counts;
}

/** What a client that runs no script gets from a page. */
export interface StaticContent {
  /**
   * Page chrome and little else: more text in the header, footer, menus and asides than the
   * little outside them (an app whose scripts draw the content, or a page saved without them).
   * Its chrome is not its main content.
   */
  chromeOnly: boolean;
  /** A client-side app that has not rendered yet: it runs scripts and holds nothing of its own without them. */
  appShell: boolean;
}

/** Judges a cleaned page's body; `scriptCount` is how many `<script>`s the page had before cleaning. */
export function staticContent(scriptCount: number, cleanedBody: Node): StaticContent {
  const { own, chrome } = measureText(cleanedBody, MIN_OWN_TEXT);
  const little = own < MIN_OWN_TEXT;
  return { chromeOnly: little && chrome > own, appShell: little && scriptCount > 0 };
}
