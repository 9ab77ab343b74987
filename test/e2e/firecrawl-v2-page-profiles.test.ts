import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadWcxb } from '../content/wcxb-corpus';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';

/** The product and menu formats (the page's structured data) and branding (the rendered page), through firecrawl-js 4.42 unmodified. */
let site: FixtureServer;
const at = (path: string) => `${site.url}${path}`;

/** A real product page (WCXB 0582, shop.bombas.com) whose JSON-LD names the product and its price. */
const [realProduct] = loadWcxb(process.env.WCXB_DIR ?? '/work/shared/corpora/wcxb-dev', ['0582']);
const REAL_PATH = new URL(realProduct!.url).pathname;

const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...(data as object) })}</script>`;
const page = (title: string, head: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const LANTERN = {
  '@type': 'Product',
  name: 'Storm lantern',
  description: 'A brass lantern that stays lit in a gale.',
  sku: 'SL-200',
  image: 'https://cdn.example.org/lantern.jpg',
  offers: { '@type': 'Offer', price: '89.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
};
const MENU = {
  '@type': 'Restaurant',
  name: 'Harbour Kitchen',
  hasMenu: {
    '@type': 'Menu',
    hasMenuSection: [
      {
        '@type': 'MenuSection',
        name: 'Starters',
        hasMenuItem: [
          { '@type': 'MenuItem', name: 'Oysters', description: 'Six rock oysters', offers: { '@type': 'Offer', price: '14.50', priceCurrency: 'EUR' }, suitableForDiet: 'https://schema.org/GlutenFreeDiet' },
          { '@type': 'MenuItem', name: 'Fish soup' },
        ],
      },
      { '@type': 'MenuSection', name: 'Mains', hasMenuItem: [{ '@type': 'MenuItem', name: 'Hake', offers: { '@type': 'Offer', price: '24', priceCurrency: 'EUR' } }] },
    ],
  },
};

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/lantern': (_req, res) => html(res, page('Storm lantern', ld(LANTERN), '<p>A brass lantern.</p><p>€89.00</p>')),
      '/menu': (_req, res) => html(res, page('Harbour Kitchen menu', ld(MENU), '<p>Oysters, fish soup and hake.</p>')),
      '/brand': (_req, res) =>
        html(
          res,
          `<!doctype html><html lang="en"><head><title>Acme Lamps</title><link rel="icon" href="/favicon.ico"><meta property="og:site_name" content="Acme Lamps"><meta property="og:image" content="https://cdn.example.org/acme.png">
<style>body { background: #fafafa; color: #222; font: 16px Verdana, sans-serif; } h1 { font-family: Georgia, serif; font-size: 40px; } a { color: #0055cc; } button { background: #ff6600; color: #fff; border-radius: 6px; }</style></head>
<body><header><img src="/img/acme-logo.png" alt="Acme"><a href="/">Home</a></header><main><h1>Lamps for every coast</h1><p>Brass lamps since 1901.</p><button>Buy now</button></main></body></html>`,
        ),
      '/essay': (_req, res) => html(res, page('On lanterns', '', '<p>Lanterns have lit harbours for centuries.</p>')),
      [REAL_PATH]: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(realProduct!.html),
    },
    inject('siteHosts')[0],
  );
});
afterAll(() => site?.close());

const sdk = () => new Firecrawl({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });

describe('product', () => {
  it('is the JSON-LD product, its offer as a variant; what the page does not state (brand, category) is absent', async () => {
    const doc = await sdk().scrape(at('/lantern'), { formats: ['product'] });
    expect(doc.product).toEqual({
      title: 'Storm lantern',
      url: at('/lantern'),
      description: 'A brass lantern that stays lit in a gale.',
      variants: [{ sku: 'SL-200', price: { amount: 89, currency: 'EUR' }, availability: { inStock: true, text: 'InStock' }, images: [{ url: 'https://cdn.example.org/lantern.jpg' }] }],
    });
    expect(doc.rawHtml).toBeUndefined();
    expect(doc.markdown).toBeUndefined();
  });

  it('reads a real product page’s name and price', async () => {
    const doc = await sdk().scrape(at(REAL_PATH), { formats: ['markdown', 'product'] });
    expect(doc.product?.title).toBe("Men's Quarter Socks");
    expect(doc.product?.brand).toBe('Bombas');
    expect(doc.product?.variants[0]?.price).toEqual({ amount: 17, currency: 'EUR' });
  });

  it('is absent, with a warning, on a page that offers nothing', async () => {
    const doc = await sdk().scrape(at('/essay'), { formats: ['markdown', 'product', 'menu'] });
    expect(doc.product).toBeUndefined();
    expect(doc.menu).toBeUndefined();
    expect(doc.warning).toContain('states no product');
    expect(doc.warning).toContain('states no menu item');
    expect(doc.markdown).toContain('Lanterns have lit harbours');
  });
});

describe('menu', () => {
  it('is the schema.org menu: sections, items, prices and diets as stated', async () => {
    const doc = await sdk().scrape(at('/menu'), { formats: ['menu'] });
    const source = at('/menu');
    expect(doc.menu).toMatchObject({ isMenu: true, merchant: { name: 'Harbour Kitchen' }, currency: 'EUR', sourceUrl: source });
    expect(doc.menu!.confidence).toBeGreaterThan(0.9);
    expect(doc.menu!.sections).toEqual([
      {
        id: 'section-1',
        name: 'Starters',
        items: [
          { id: 'item-1-1', name: 'Oysters', description: 'Six rock oysters', images: [], price: { amount: 14.5, currency: 'EUR' }, dietary: ['GlutenFreeDiet'], optionGroups: [], identifiers: {}, sourceUrl: source },
          { id: 'item-1-2', name: 'Fish soup', images: [], dietary: [], optionGroups: [], identifiers: {}, sourceUrl: source },
        ],
      },
      { id: 'section-2', name: 'Mains', items: [{ id: 'item-2-1', name: 'Hake', images: [], price: { amount: 24, currency: 'EUR' }, dietary: [], optionGroups: [], identifiers: {}, sourceUrl: source }] },
    ]);
  });

  it('works in batch scrapes too', async () => {
    const job = await sdk().batchScrape([at('/menu'), at('/lantern')], { options: { formats: ['menu', 'product'] }, pollInterval: 1, timeout: 60 });
    const byPath = new Map(job.data.map((d) => [new URL(d.metadata!.sourceURL!).pathname, d]));
    expect(byPath.get('/menu')?.menu?.sections).toHaveLength(2);
    expect(byPath.get('/lantern')?.product?.title).toBe('Storm lantern');
  });
});

describe('branding', () => {
  it('reads the rendered page’s colours, fonts, logo and favicon, in a browser render', async () => {
    const doc = await sdk().scrape(at('/brand'), { formats: ['branding'] });
    expect(doc.branding).toEqual({
      colorScheme: 'light',
      brandName: 'Acme Lamps',
      logo: at('/img/acme-logo.png'),
      fonts: [{ family: 'Verdana' }, { family: 'Georgia' }],
      colors: { primary: '#ff6600', background: '#fafafa', textPrimary: '#222222', link: '#0055cc' },
      typography: {
        fontFamilies: { primary: 'Verdana', heading: 'Georgia' },
        fontStacks: { body: ['Verdana', 'sans-serif'], heading: ['Georgia', 'serif'] },
        fontSizes: { h1: '40px', body: '16px' },
      },
      components: { buttonPrimary: { background: '#ff6600', textColor: '#ffffff', borderRadius: '6px' } },
      images: { logo: at('/img/acme-logo.png'), favicon: at('/favicon.ico'), ogImage: 'https://cdn.example.org/acme.png' },
    });
    expect(doc.metadata?.creditsUsed).toBe(2);
  });

  it('needs the browser: engine "http" is refused', async () => {
    const { status, body } = await api('/v2/scrape', { body: { url: at('/brand'), formats: ['branding'], engine: 'http' } });
    expect(status).toBe(400);
    expect(body.error).toContain('branding need the browser');
  });
});
