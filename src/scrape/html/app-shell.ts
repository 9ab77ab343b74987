/** Below this much visible text a page that runs scripts is taken for a client-rendered shell. */
const MIN_STATIC_TEXT = 200;

/**
 * True when static HTML is a client-side app that has not rendered yet: scripts that would
 * produce the content, and little visible text without them.
 */
export function isAppShell(scriptCount: number, cleanedBodyText: string): boolean {
  return scriptCount > 0 && cleanedBodyText.replace(/\s+/g, ' ').trim().length < MIN_STATIC_TEXT;
}
