import { describe, expect, it } from 'vitest';
import { parsePage } from '../../src/scrape/html/parse-document';
import { toText } from '../../src/scrape/html/to-text';
import { contentRegion, type RegionOptions } from '../../src/scrape/main-content/content-region';

const PROSE = 'Paragraph text that a reader came for, long enough to be the content of the page. '.repeat(4);

function region(body: string, options: RegionOptions = { pruneLinkDense: true }): string {
  return toText(contentRegion(parsePage(`<html><body>${body}</body></html>`), options));
}

describe('contentRegion', () => {
  it('drops short texts hidden by a utility class, keeps collapsed content and what a larger screen shows', () => {
    const text = region(
      `<main><h1>Title</h1><p>${PROSE}</p><div class="d-none">2016-03-17 13:23:29</div><p class="error hidden">Error rating book.</p>` +
        `<div class="hidden md:block">Shown on desktop</div><p class="wt-display-none">Captcha failed to load.</p><div class="collapse-body hidden"><p>${PROSE}</p></div></main>`,
    );
    expect(text).not.toContain('2016-03-17');
    expect(text).not.toContain('Error rating');
    expect(text).not.toContain('Captcha');
    expect(text).toContain('Shown on desktop');
    expect(text.split(PROSE.trim()).length).toBe(3);
  });

  it('drops what only hovering shows (a tooltip), keeps what fades in for every reader', () => {
    const row =
      '<div role="row"><span class="group/tooltip">Image Optimization <div class="absolute opacity-0 group-hover/tooltip:opacity-100">Polish reduces your image sizes by 35% on average.</div></span><span>Included</span></div>';
    const text = region(`<main><h1>Plans</h1><p>${PROSE}</p>${row}<p class="opacity-0 animate-fade-in">Trusted by teams everywhere.</p></main>`);
    expect(text).toContain('Image Optimization');
    expect(text).not.toContain('Polish reduces');
    expect(text).toContain('Trusted by teams');
  });

  it('drops reply and signup boxes with their instructions, not a page-wide form', () => {
    const answerBox =
      '<form id="post-form"><h2>Your Answer</h2><textarea></textarea><p>Thanks for contributing an answer! Please be sure to answer the question.</p><p>By clicking Post, you agree to our terms.</p></form>';
    const signup = '<div class="footer-email"><p>Enter your email for 10% off your first order.</p><form><input type="email"></form></div>';
    const text = region(`<main><h1>Question</h1><p>${PROSE}</p>${answerBox}${signup}</main>`);
    expect(text).toContain('Paragraph text');
    expect(text).not.toContain('Your Answer');
    expect(text).not.toContain('contributing');
    expect(text).not.toContain('10% off');
    const aspNet = region(`<form action="/page.aspx"><h1>Article</h1><p>One. ${PROSE}</p><p>Two. ${PROSE}</p><p>Three. ${PROSE}</p><div class="box"><p>Leave a comment</p><textarea></textarea></div></form>`);
    expect(aspNet.split(PROSE.trim()).length).toBe(4);
    expect(aspNet).not.toContain('Leave a comment');
  });

  it('drops labels repeated three times, not a name linked in three sentences', () => {
    const card = (n: number) => `<div class="card"><h3>Item ${n}</h3><p>What item ${n} is about, in a sentence.</p><a href="/cart">Add to cart</a></div>`;
    const mention = (n: number) => `<p>For more on part ${n}, visit our <span class="link"><a href="/kc">Knowledge Center</a></span> today.</p>`;
    const text = region(`<main><h1>Title</h1>${card(1)}${card(2)}${card(3)}${mention(1)}${mention(2)}${mention(3)}</main>`, { pruneLinkDense: false });
    expect(text).not.toContain('Add to cart');
    expect(text.match(/Knowledge Center/g)).toHaveLength(3);
  });

  it('drops links drawn as buttons, sidebars and hover cards named as such, keeps a card title link', () => {
    const text = region(
      `<main><h1>Plans</h1><p>${PROSE}</p><a class="btn btn-primary" href="/start">Get started</a><a role="button" href="/demo">Book a demo</a>` +
        `<h3><a class="card-title" href="/pro">Pro plan</a></h3><div class="p-body-sidebar"><h3>Forum statistics</h3><p>Threads 278,867</p></div><div class="profile-preview-card">Joined Feb 2020</div></main>`,
      { pruneLinkDense: false },
    );
    expect(text).not.toContain('Get started');
    expect(text).not.toContain('Book a demo');
    expect(text).not.toContain('Forum statistics');
    expect(text).not.toContain('Joined');
    expect(text).toContain('Pro plan');
  });

  it("drops a country or language picker named as such, keeps a product's colour picker", () => {
    const countries = ['Österreich', 'België', 'Deutschland', 'España', 'Italia'].map((name) => `<li><span>${name}</span></li>`).join('');
    const text = region(
      `<main><h1>Gadgets</h1><p>${PROSE}</p><ul class="country-selector">${countries}</ul><ul class="language_switcher"><li>English</li><li>Deutsch</li></ul>` +
        '<ul class="color-selector"><li>Blue</li><li>Red</li></ul></main>',
      { pruneLinkDense: false },
    );
    expect(text).not.toContain('Deutschland');
    expect(text).not.toContain('English');
    expect(text).toContain('Blue');
  });

  it('keeps closed accordion and tab panels, whatever hides them, and drops other hidden parts', () => {
    const answer = 'Canister stoves use canisters of isobutane or propane: easy to use, low maintenance, quick to boil.';
    const text = region(
      `<main><h1>Camp stoves</h1><p>${PROSE}</p><h2>FAQ</h2><button aria-controls="faq-1">Which stove?</button><div id="faq-1" hidden><p>${answer}</p></div>` +
        `<div class="cdr-accordion__content" aria-hidden="true"><p>Alternative-fuel stoves run on fuel pellets or wood.</p></div>` +
        `<div aria-hidden="true"><p>Decorative copy for an animation</p></div><div hidden><p>Template for a script</p></div></main>`,
    );
    expect(text).toContain('Which stove?');
    expect(text).toContain(answer);
    expect(text).toContain('Alternative-fuel stoves');
    expect(text).not.toContain('Decorative copy');
    expect(text).not.toContain('Template for a script');
  });

  it("keeps a thread's post dates that several posts share", () => {
    const post = (author: string) => `<div class="post"><h3>${author}</h3><div>Posted <time datetime="2025-10-29">October 29, 2025</time></div><p>${PROSE}</p></div>`;
    const text = region(`<main><h1>Thread</h1>${post('anna')}${post('bob')}${post('carl')}</main>`, { pruneLinkDense: true, posts: true });
    expect(text.match(/October 29, 2025/g)).toHaveLength(3);
  });

  it("keeps each post's poster name that the posts repeat, not a control label", () => {
    const post = (author: string, n: number) =>
      `<article><a href="/members/${author}.12/" class="username">${author}</a><p>Post ${n}: ${PROSE}</p><a href="/posts/${n}/reply">Reply</a></article>`;
    const text = region(`<main><h1>Thread</h1>${post('anna', 1)}${post('bob', 2)}${post('anna', 3)}${post('anna', 4)}</main>`, { pruneLinkDense: true, posts: true });
    expect(text.match(/^anna$/gm)).toHaveLength(3);
    expect(text).not.toContain('Reply');
  });

  it("keeps a post's byline whose block is all links (the poster's profile, the post's date), not who reacted to it nor a phone copy", () => {
    const post = (author: string, n: number) =>
      `<article><section><a href="/members/${author}.${n}/" class="avatar"><img alt="${author}"></a><h4><a href="/members/${author}.${n}/">${author}</a></h4></section>` +
      `<header><ul><li><a href="/posts/${n}/"><time datetime="2024-09-2${n}">Sep 2${n}, 2024</time></a></li></ul></header>` +
      `<div class="phone-pane"><a href="/members/${author}.${n}/">${author}</a></div><p>${PROSE}</p>` +
      `<div class="reactions"><a href="/members/zed.9/">zed</a>, <a href="/members/yan.8/">yan</a></div></article>`;
    const text = region(`<main><h1>Thread</h1>${post('lgans316', 1)}${post('Dimplex', 2)}</main>`, { pruneLinkDense: true, posts: true });
    expect(text.match(/^lgans316$/gm)).toHaveLength(1);
    expect(text.match(/^Dimplex$/gm)).toHaveLength(1);
    expect(text).toContain('Sep 21, 2024');
    expect(text).toContain('Sep 22, 2024');
    expect(text).not.toContain('zed');
    // Elsewhere a block of links is a menu.
    expect(region(`<main><h1>Thread</h1>${post('lgans316', 1)}</main>`)).not.toContain('Sep 21, 2024');
  });

  it("keeps a phpBB post's date line, a link to the post whose words are its date", () => {
    const post = (n: number) =>
      `<div class="post"><dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&u=${n}">poster${n}</a></dt></dl>` +
      `<div class="postbody"><p class="author"><a href="./viewtopic.php?p=${n}#p${n}">Sun Dec 1${n}, 2023 11:23 am</a></p><div class="content">${PROSE}</div></div></div>`;
    const text = region(`<main><h1>Turning off all LEDs</h1>${post(7)}${post(8)}</main>`, { pruneLinkDense: true, posts: true });
    expect(text).toContain('Sun Dec 17, 2023 11:23 am');
    expect(text).toContain('Sun Dec 18, 2023 11:23 am');
  });

  it("keeps the name from a post's author column, not the rest of the poster's card nor a signature", () => {
    const post = (author: string) =>
      `<article><aside class="author-column"><h3><a href="/profile/1-${author}/">${author}</a></h3><div>Rig: Threadripper 3960X, 128 GB</div></aside>` +
      `<div class="post"><p>${PROSE}</p></div><aside class="message-signature"><h3>There is a man with a mullet</h3></aside></article>`;
    const text = region(`<main><h1>New PC case</h1>${post('Rabbids')}${post('DevBiker')}</main>`, { pruneLinkDense: true, posts: true });
    expect(text).toContain('Rabbids');
    expect(text).toContain('DevBiker');
    expect(text).not.toContain('Threadripper');
    expect(text).not.toContain('mullet');
    // Elsewhere an aside is still the page's.
    expect(region(`<main><article><h1>News</h1><p>${PROSE}</p><aside><h3>Read next</h3><p>Another story</p></aside></article></main>`)).not.toContain('Read next');
  });

  it("takes a page's only article as the region when it has no main landmark", () => {
    const text = region(`<div class="top"><p>${'Site-wide promotion text about a sale that runs this week only, in every store. '.repeat(2)}</p></div><article><h1>Dental care</h1><p>${PROSE}</p><p>${PROSE}</p></article>`, { pruneLinkDense: true });
    expect(text).toContain('Dental care');
    expect(text).not.toContain('Site-wide promotion');
  });

  it("keeps a card's caption whatever its class names, not an icon link's screen-reader label", () => {
    const card = (name: string, price: string) => `<a class="product" href="/shop/${name}"><img src="/${name}.jpg" alt=""><div class="product-overlay"><div>${name}</div><div>${price}</div></div></a>`;
    const icons = '<div class="icons"><a href="https://play.example/app"><span class="sr-only">Get it on the Play store</span></a></div>';
    const text = region(`<main><h1>Shop</h1><div id="productList">${card('Pink Nina Bag', '$130.00')}${card('Virginia Birds Poster', '$30.00')}</div>${icons}<div class="site-overlay">Loading your cart</div></main>`, {
      pruneLinkDense: true,
      keepItems: true,
    });
    expect(text).toContain('Pink Nina Bag');
    expect(text).toContain('$30.00');
    expect(text).not.toContain('Play store');
    expect(text).not.toContain('Loading your cart');
  });

  it('keeps content a gate script hides until it lets the reader in, not a small hidden notice', () => {
    const filters = `<aside><h2>Filter</h2><p>${'Roast: light, medium, dark. Grind: whole bean, ground. '.repeat(12)}</p></aside>`;
    const text = region(`<main><h1>Coffee</h1><p>Our coffees.</p><div class="lockdown-notice" style="display:none">Access denied</div><div class="lockdown-content" style="display:none">${filters}<p>${PROSE}</p><p>${PROSE}</p></div></main>`);
    expect(text).toContain('Paragraph text');
    expect(text).not.toContain('Access denied');
  });

  it('keeps a run of item cards whose class names a state with a chrome word, not a lone promo card', () => {
    const card = (name: string) => `<li><div class="card-wrapper product-card-wrapper subscription-eligible"><a href="/p/${name}">${name} Coffee, whole bean</a><span>$19.99</span></div></li>`;
    const text = region(`<main><h1>Coffee</h1><p>${PROSE}</p><ul>${card('Dark')}${card('Medium')}${card('Light')}</ul><div class="product-card subscription-box"><a href="/subscribe">Start a subscription today</a></div></main>`, { pruneLinkDense: false });
    expect(text).toContain('Dark Coffee');
    expect(text).toContain('Light Coffee');
    expect(text).not.toContain('Start a subscription');
  });

  it("says once a card's name that its links repeat, and drops labels repeated across cards", () => {
    const card = (name: string) => `<div class="card"><a href="/p/${name}"><img src="/${name}.jpg" alt=""><span>${name} Roast</span></a><a href="/p/${name}">${name} Roast</a><h3><a href="/p/${name}">${name} Roast</a></h3><a href="/cart?${name}">Quick add</a></div>`;
    const text = region(`<main><h1>Coffee</h1><p>${PROSE}</p>${card('Dark')}${card('Medium')}${card('Light')}</main>`, { pruneLinkDense: false });
    expect(text.match(/Dark Roast/g)).toHaveLength(1);
    expect(text).not.toContain('Quick add');
  });

  it("drops a photo's caption and credit, keeps a doc figure's explanation", () => {
    const figure = '<figure><img src="/a.jpg" alt=""><figcaption>Testing the scooter on a hill. Photo: Jane Doe</figcaption></figure>';
    const article = region(`<main><h1>Scooters</h1><p>${PROSE}</p>${figure}<p>${PROSE}</p></main>`);
    expect(article).toContain('Paragraph text');
    expect(article).not.toContain('Photo: Jane Doe');
    const doc = region(`<main><h1>Pipeline</h1><p>${PROSE}</p><figure><img src="/p.svg" alt=""><figcaption>Figure 1: each stage feeds the next.</figcaption></figure></main>`, {
      pruneLinkDense: true,
      figureCaptions: true,
    });
    expect(doc).toContain('Figure 1: each stage feeds the next.');
  });

  it('drops a notice hidden until some state shows it, keeps a note on screen', () => {
    const text = region(
      `<main><h1>Which Qt version</h1><div class="alert alert-warning hidden"><span>This topic has been deleted.</span></div><p>${PROSE}</p><div class="alert-info"><p>Note: Qt 6.4 is the last to support it.</p></div></main>`,
    );
    expect(text).not.toContain('has been deleted');
    expect(text).toContain('Note: Qt 6.4');
  });

  it("keeps a product's text from its name on: not what the page prints above the <h1>, unless that is prose or most of the page", () => {
    const product = { pruneLinkDense: true, fromTitle: true } as const;
    const text = region(
      `<main><div class="top"><p>Repair is universal. See our shop in your region</p><p>Europe (English)</p></div><div class="info"><p>Found on 4 wish lists</p><h1>Jimmy</h1><p>${PROSE}</p></div></main>`,
      product,
    );
    expect(text).not.toContain('Repair is universal');
    expect(text).not.toContain('wish lists');
    expect(text).toContain('Jimmy');
    const described = region(`<main><p>${PROSE}</p><h1>Jimmy</h1><p>$7.95</p><p>${PROSE.slice(0, 100)}</p></main>`, product);
    expect(described).toContain('Paragraph text');
  });

  it('says a line of a product page once when an earlier line said each of its long sentences', () => {
    const answer = 'The camera lasts up to one month on a single charge, depending on the mode you choose.';
    const text = region(
      `<main><h1>Bird feeder</h1><p>${PROSE}</p><p>${answer} It charges over USB-C.</p><h2>FAQ</h2><p>How long does the battery last?</p><p>Battery life. ${answer}</p><p>It charges over USB-C in two hours, from any outlet.</p>` +
        `<h2>Minimum</h2><ul><li>Video Card: 128 MB of video memory, capable of OpenGL 3.0 or later</li></ul><h2>Recommended</h2><ul><li>Video Card: 128 MB of video memory, capable of OpenGL 3.0 or later</li></ul></main>`,
      { pruneLinkDense: true, sentencesOnce: true },
    );
    expect(text.split(answer)).toHaveLength(2);
    expect(text).not.toContain('Battery life.');
    expect(text).toContain('in two hours');
    expect(text).toContain('How long does the battery last?');
    expect(text.match(/Video Card/g)).toHaveLength(2);
  });

  it("drops a product gallery's counters and show-more controls", () => {
    const text = region(
      `<main><h1>Terraria</h1><div class="gallery"><span>0:01/1:21</span><div>1 of 24</div><p>Item 3</p></div><p>${PROSE}</p><p>Show more + Show less –</p><p>Open in Desktop App</p><p>View manufacturing details</p><p>Chapter 1 of the story starts here.</p></main>`,
      { pruneLinkDense: true, purchase: true },
    );
    expect(text).not.toMatch(/0:01|1 of 24|Item 3|Show more|Desktop App|manufacturing details/);
    expect(text).toContain('Chapter 1 of the story');
  });

  it("keeps a hidden expander's text, as it does a tab's", () => {
    const excerpt = 'It is so easy to overestimate the importance of one defining moment and underestimate the value of making small improvements.';
    const text = region(`<main><h1>Atomic Habits</h1><p>${PROSE}</p><div class="a-expander-content" style="display:none"><p>${excerpt}</p></div></main>`);
    expect(text).toContain(excerpt);
  });

  it("keeps a product page's highlight cards that link to its own sections, drops a list of links to other pages", () => {
    const highlights = ['Snapdragon 8 Elite for flagship power', 'IP69 water resistance with Aqua Touch', 'Ultra-slim silicon battery']
      .map((label, i) => `<a href="#anchor-${i}"><div>${label}</div></a>`)
      .join('');
    const sections = [0, 1, 2].map((i) => `<section id="anchor-${i}"><p>${PROSE}</p></section>`).join('');
    const others = '<div><a href="/phones/a">Other phone A</a> <a href="/phones/b">Other phone B</a> <a href="/phones/c">Other phone C</a></div>';
    const text = region(`<main><h1>OnePlus 13</h1><div class="highlights">${highlights}</div>${others}${sections}</main>`, { pruneLinkDense: true, inPageLinks: true });
    expect(text).toContain('Aqua Touch');
    expect(text).not.toContain('Other phone');
  });

  it("keeps the product's name when a copy of it above the <h1> goes", () => {
    const name = '24-piece brush and sponge set for Pro B402HW vacuum cleaners';
    const text = region(`<main><div class="banner"><p>Ended</p><p>${name}</p></div><h1>${name}</h1><p>${PROSE}</p></main>`, { pruneLinkDense: true, fromTitle: true, sentencesOnce: true });
    expect(text.split(name)).toHaveLength(2);
    expect(text).not.toContain('Ended');
  });

  it("drops a cookie notice and a notice at collection that a site prints on every page, keeps a paragraph about privacy", () => {
    const text = region(
      `<main><h1>Quarter Socks</h1><p>${PROSE}</p><div><p>We use cookies to improve your experience. By continuing you agree to our use of cookies.</p></div>` +
        '<div><p>Notice to Consumers: Bombas may collect "Identifiers" and "Geolocation data" when you visit this website. For more information, please see our Privacy Policy.</p></div>' +
        '<p>The app keeps your bird photos private by default: nothing is shared unless you choose to share it.</p></main>',
    );
    expect(text).not.toContain('cookies');
    expect(text).not.toContain('may collect');
    expect(text).toContain('private by default');
  });

  it('says a line of a product page once when an earlier line said it in nearly the same words, keeps a short line a long paragraph happens to cover', () => {
    const first = 'Helichrysum. Everlasting regeneration. The jewel in the aroma and another star active of the serum is the finest immortelle from Corsica, rich in regenerative italidiones.';
    const again = 'Helichrysum oil (everlasting regeneration) – the jewel in the aroma, and another star active of the serum, is the finest immortelle from Corsica, rich in regenerative italidiones.';
    const story = `${first} Blended by hand in small batches on Kauai, with cold-pressed kukui nut oil, organic chia seed extract and wild-harvested tamanu.`;
    const covered = 'Kauai chia seed oil, blended by hand in small batches, with the finest immortelle from Corsica.';
    const text = region(`<main><h1>Vitality Elixir</h1><p>${PROSE}</p><p>${story}</p><h2>Ingredients</h2><p>${again}</p><p>${covered}</p></main>`, {
      pruneLinkDense: true,
      sentencesOnce: true,
    });
    expect(text).toContain(first);
    expect(text).not.toContain('Helichrysum oil');
    expect(text).toContain(covered);
  });
});
