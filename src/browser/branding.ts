import type { Page } from 'playwright';
import type { BrandingProfile } from '../db/branding-profile';

/**
 * Runs in the page. Source text rather than a function: a bundler that keeps function names
 * (tsx, esbuild's keepNames) wraps inner functions in a helper the page does not have.
 */
const READ_BRANDING = `(() => {
  const hex = (color) => {
    const m = /^rgba?\\((\\d+),\\s*(\\d+),\\s*(\\d+)(?:,\\s*([\\d.]+))?\\)$/.exec(color || '');
    if (!m || (m[4] !== undefined && Number(m[4]) === 0)) return undefined;
    return '#' + [m[1], m[2], m[3]].map((c) => Number(c).toString(16).padStart(2, '0')).join('');
  };
  const style = (selector) => {
    const el = document.querySelector(selector);
    return el ? getComputedStyle(el) : undefined;
  };
  const stack = (family) => (family ? family.split(',').map((f) => f.trim().replace(/^["']|["']$/g, '')).filter(Boolean) : []);
  const attr = (selector, name) => (document.querySelector(selector)?.getAttribute(name) || '').trim() || undefined;
  const absolute = (url) => (url ? new URL(url, document.baseURI).href : undefined);
  const prune = (o) => {
    const kept = Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0));
    return kept.length ? Object.fromEntries(kept) : undefined;
  };

  const body = style('body');
  const background = hex(body?.backgroundColor) ?? hex(style('html')?.backgroundColor);
  const heading = style('h1') ?? style('h2');
  const button = style('button, .btn, .button, a[class*="button"], input[type="submit"]');
  const bodyStack = stack(body?.fontFamily);
  const headingStack = stack(heading?.fontFamily);
  const codeStack = stack(style('code, pre')?.fontFamily);
  const logoImage = document.querySelector('header img, nav img, img[class*="logo" i], img[id*="logo" i], img[alt*="logo" i], img[src*="logo" i]');
  const logo = logoImage ? logoImage.currentSrc || logoImage.src || undefined : undefined;
  const favicon = absolute(attr('link[rel~="icon"], link[rel="shortcut icon"], link[rel="apple-touch-icon"]', 'href'));
  const ogImage = absolute(attr('meta[property="og:image"]', 'content'));
  const families = [...new Set([bodyStack[0], headingStack[0], codeStack[0]].filter(Boolean))];
  const luminance = background ? parseInt(background.slice(1, 3), 16) * 0.299 + parseInt(background.slice(3, 5), 16) * 0.587 + parseInt(background.slice(5, 7), 16) * 0.114 : undefined;

  return prune({
    colorScheme: luminance === undefined ? undefined : luminance < 128 ? 'dark' : 'light',
    brandName: attr('meta[property="og:site_name"]', 'content') ?? attr('meta[name="application-name"]', 'content'),
    logo,
    fonts: families.map((family) => ({ family })),
    colors: prune({ primary: hex(button?.backgroundColor), background, textPrimary: hex(body?.color), link: hex(style('a[href]')?.color) }),
    typography: prune({
      fontFamilies: prune({ primary: bodyStack[0], heading: headingStack[0], code: codeStack[0] }),
      fontStacks: prune({ body: bodyStack, heading: headingStack }),
      fontSizes: prune({ h1: style('h1')?.fontSize, h2: style('h2')?.fontSize, h3: style('h3')?.fontSize, body: body?.fontSize }),
    }),
    components: button ? prune({ buttonPrimary: prune({ background: hex(button.backgroundColor), textColor: hex(button.color), borderRadius: button.borderRadius }) }) : undefined,
    images: prune({ logo, favicon, ogImage }),
  }) ?? {};
})()`;

/**
 * The page's branding as Chromium renders it: computed colours and fonts of the body, headings,
 * links and the first button, the logo (an image in the header or named "logo"), the favicon and
 * the Open Graph image. Only what the page shows is set; nothing is inferred.
 */
export function readBranding(page: Page): Promise<BrandingProfile> {
  return page.evaluate(READ_BRANDING) as Promise<BrandingProfile>;
}
