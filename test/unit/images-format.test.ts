import { describe, expect, it } from 'vitest';
import { imagesOf } from '../../src/firecrawl/v2/page-markup';

describe('the v2 images format', () => {
  it('lists every image address once, absolute, lazy-loaded images at their real address and no data: placeholder', () => {
    const page = `<html><body>
      <img src="/a.jpg" srcset="/a-640.jpg 640w, /a-1280.jpg 1280w">
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==" data-src="/lazy.jpg">
      <img data-lazy-srcset="/set-1x.webp 1x, /set-2x.webp 2x">
      <picture><source data-srcset="/pic.avif"><img data-original="/pic.jpg"></picture>
      <img src="/a.jpg">
    </body></html>`;
    expect(imagesOf(page, 'https://example.com/page')).toEqual({
      images: ['/a.jpg', '/a-640.jpg', '/a-1280.jpg', '/lazy.jpg', '/set-1x.webp', '/set-2x.webp', '/pic.avif', '/pic.jpg'].map((p) => `https://example.com${p}`),
      total: 8,
    });
  });
});
