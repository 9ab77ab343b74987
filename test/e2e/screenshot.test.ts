import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger, screenshots } from '../../src/db/schema';
import { SHOT } from '../fixtures/screenshot-pages';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { dimensions, download, pixel, PNG_SIGNATURE } from '../helpers/images';
import { startPrivateServer } from '../helpers/private-server';
import { testTemporal } from '../helpers/temporal';

async function screenshot(body: Record<string, unknown>) {
  return api('/v1/screenshot', { body });
}

/** The screenshot's id, from the last path segment of its URL. */
function idOf(url: string): string {
  return path.basename(new URL(url).pathname).split('.')[0]!;
}

const centre = (b: { x: number; y: number; width: number; height: number }, scale = 1) => [Math.round((b.x + b.width / 2) * scale), Math.round((b.y + b.height / 2) * scale)] as const;

describe('POST /v1/screenshot', () => {
  it('captures the page as a PNG that shows it, and charges one credit', async () => {
    const url = fixture('/shot/colors');
    const { status, body } = await screenshot({ url });
    expect(status).toBe(200);
    const data = body.data;
    expect(data).toMatchObject({
      width: 1280,
      height: 800,
      format: 'png',
      viewport: { width: 1280, height: 800, deviceScaleFactor: 1, isMobile: false, fullPage: false },
      page: { url, statusCode: 200, title: 'Colour blocks' },
    });
    expect(data.url).toMatch(new RegExp(`^${inject('apiUrl')}/v1/screenshots/[0-9a-f]{32}\\.png$`));
    for (const k of ['queuedMs', 'navigationMs', 'waitMs', 'captureMs', 'totalMs']) expect(data.timing[k]).toBeGreaterThanOrEqual(0);
    expect(data.timing.totalMs).toBeGreaterThanOrEqual(data.timing.navigationMs + data.timing.captureMs);
    const ttlHours = (Date.parse(data.expiresAt) - Date.now()) / 3_600_000;
    expect(ttlHours).toBeGreaterThan(23.9);
    expect(ttlHours).toBeLessThanOrEqual(24);

    const image = await download(data.url);
    expect(image.status).toBe(200);
    expect(image.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(image.bytes.length).toBe(data.bytes);
    expect(dimensions(image.bytes)).toMatchObject({ width: 1280, height: 800, type: 'png' });
    expect(pixel(image.bytes, ...centre(SHOT.red))).toEqual(SHOT.red.rgb);
    expect(pixel(image.bytes, ...centre(SHOT.blue))).toEqual(SHOT.blue.rgb);
    expect(pixel(image.bytes, 5, 5)).toEqual([255, 255, 255]);

    const { db } = testDatabase();
    const [row] = await db.select().from(screenshots).where(eq(screenshots.id, idOf(data.url)));
    const charges = await db.select().from(ledger).where(eq(ledger.jobId, row!.jobId!));
    expect(charges.map((c) => [c.amount, c.operation])).toEqual([[-1, 'screenshot']]);
  });

  it('sizes the image by viewport and deviceScaleFactor', async () => {
    const { body } = await screenshot({ url: fixture('/shot/colors'), viewport: { width: 640, height: 480 }, deviceScaleFactor: 2 });
    expect(body.data).toMatchObject({ width: 1280, height: 960, viewport: { width: 640, height: 480, deviceScaleFactor: 2 } });
    const image = await download(body.data.url);
    expect(dimensions(image.bytes)).toMatchObject({ width: 1280, height: 960 });
    expect(pixel(image.bytes, ...centre(SHOT.red, 2))).toEqual(SHOT.red.rgb);
  });

  it('emulates a phone with mobile', async () => {
    const { body } = await screenshot({ url: fixture('/shot/colors'), mobile: true });
    const { viewport } = body.data;
    expect(viewport.isMobile).toBe(true);
    expect(viewport.width).toBeLessThan(500);
    expect(viewport.deviceScaleFactor).toBeGreaterThan(1);
    expect(Math.abs(body.data.width - viewport.width * viewport.deviceScaleFactor)).toBeLessThanOrEqual(1);
  });

  it('captures the whole of a tall page, with lazy images loaded by scrolling', async () => {
    const { body } = await screenshot({ url: fixture('/shot/tall'), fullPage: true });
    expect(body.data).toMatchObject({ width: 1280, height: SHOT.tallHeight, viewport: { fullPage: true, height: 800 } });
    expect(body.data.warning).toBeUndefined();
    const image = await download(body.data.url);
    expect(dimensions(image.bytes).height).toBe(SHOT.tallHeight);
    const half = SHOT.lazy.size / 2;
    expect(pixel(image.bytes, half, SHOT.lazy.y + half)).toEqual(SHOT.lazy.rgb);
  });

  it('cuts a page taller than the limit and says so', async () => {
    const { body } = await screenshot({ url: fixture('/shot/very-tall'), fullPage: true, viewport: { width: 400, height: 600 } });
    expect(body.data.height).toBe(16_384);
    expect(body.data.width).toBe(400);
    expect(body.data.warning).toContain(`${SHOT.veryTallHeight} CSS pixels tall`);
    expect(dimensions((await download(body.data.url)).bytes).height).toBe(16_384);
  });

  it("captures one element at the element's size", async () => {
    const { body } = await screenshot({ url: fixture('/shot/element'), selector: '#card' });
    expect(body.data).toMatchObject({ width: SHOT.card.width, height: SHOT.card.height });
    const image = await download(body.data.url);
    expect(dimensions(image.bytes)).toMatchObject({ width: SHOT.card.width, height: SHOT.card.height });
    expect(pixel(image.bytes, 10, 10)).toEqual([0, 128, 0]);

    const missing = await screenshot({ url: fixture('/shot/element'), selector: '#nope' });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ success: false, code: 'SCREENSHOT_SELECTOR_NOT_FOUND' });
  });

  it('writes JPEG at the quality asked for', async () => {
    const low = await screenshot({ url: fixture('/shot/tall'), format: 'jpeg', quality: 20 });
    const high = await screenshot({ url: fixture('/shot/tall'), format: 'jpeg', quality: 95 });
    expect(low.body.data).toMatchObject({ format: 'jpeg', width: 1280, height: 800 });
    expect(low.body.data.url).toMatch(/\.jpeg$/);
    const [a, b] = [await download(low.body.data.url), await download(high.body.data.url)];
    expect(a.headers.get('content-type')).toBe('image/jpeg');
    expect(a.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(dimensions(a.bytes)).toMatchObject({ width: 1280, height: 800, type: 'jpg' });
    expect(a.bytes.length).toBeLessThan(b.bytes.length);
  });

  it('validates the body and the balance before capturing', async () => {
    const bad = await screenshot({ url: fixture('/shot/colors'), quality: 50, viewport: { width: 10, height: 800 }, nope: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['nope', 'quality', 'viewport.width']);
    const png = await screenshot({ url: fixture('/shot/colors'), quality: 50 });
    expect(png.body.details).toEqual([{ path: 'quality', message: 'quality applies to format "jpeg" only' }]);
    const unauthenticated = await api('/v1/screenshot', { body: { url: fixture('/shot/colors') }, key: null });
    expect(unauthenticated.status).toBe(401);
    const broke = await api('/v1/screenshot', { body: { url: fixture('/shot/colors') }, key: inject('brokeKey') });
    expect(broke.status).toBe(402);
    expect(broke.body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS', error: 'A screenshot needs 1 credit; the team has 0' });
  });
});

describe('GET /v1/screenshots/<id>.<ext>', () => {
  let url: string;
  beforeAll(async () => {
    url = (await screenshot({ url: fixture('/shot/colors') })).body.data.url;
  });

  it('serves the image without a key, with content type and caching headers', async () => {
    const image = await download(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toMatch(/^public, max-age=\d+, immutable$/);
    expect(Number(/max-age=(\d+)/.exec(image.headers.get('cache-control')!)![1])).toBeGreaterThan(86_000);
    expect(image.headers.get('etag')).toBe(`"${idOf(url)}"`);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(image.bytes.length));
    // fetch() marks conditional requests no-cache, which rightly defeats them; a cache would not.
    const again = await new Promise<number>((resolve, reject) =>
      http.get(url, { headers: { 'if-none-match': image.headers.get('etag')! } }, (res) => resolve(res.resume().statusCode!)).on('error', reject),
    );
    expect(again).toBe(304);
  });

  it('answers 404 in the error shape for a guessed id or the wrong extension', async () => {
    const guessed = await api(`/v1/screenshots/${'0123456789abcdef'.repeat(2)}.png`, { key: null });
    expect(guessed.status).toBe(404);
    expect(guessed.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const wrongExt = await api(`/v1/screenshots/${idOf(url)}.jpeg`, { key: null });
    expect(wrongExt.status).toBe(404);
    const junk = await api('/v1/screenshots/..%2F..%2Fetc%2Fpasswd', { key: null });
    expect(junk.status).toBe(404);
  });

  it('answers 404 once expired, and the cleanup Schedule deletes the file and the row', async () => {
    const { url: doomed } = (await screenshot({ url: fixture('/shot/colors') })).body.data;
    const id = idOf(doomed);
    const file = path.join(inject('logDir'), 'data', 'screenshots', `${id}.png`);
    expect(existsSync(file)).toBe(true);
    const { db } = testDatabase();
    await db.update(screenshots).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(screenshots.id, id));

    const expired = await api(`/v1/screenshots/${id}.png`, { key: null });
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(existsSync(file)).toBe(true);

    const temporal = await testTemporal();
    await temporal.schedule.getHandle(`${inject('queuePrefix')}-screenshot-cleanup`).trigger();
    await expect.poll(() => existsSync(file), { timeout: 30_000, interval: 250 }).toBe(false);
    await expect.poll(async () => (await db.select().from(screenshots).where(eq(screenshots.id, id))).length, { timeout: 10_000 }).toBe(0);
    expect((await download(url)).status).toBe(200);
  });
});

describe('screenshots and the public-URL gate', () => {
  let sentinel: Awaited<ReturnType<typeof startPrivateServer>>;
  beforeAll(async () => {
    sentinel = await startPrivateServer();
  });
  afterAll(() => sentinel.close());

  it('refuses a URL that redirects to a private address', async () => {
    const { status, body } = await screenshot({ url: fixture(`/redirect-to?target=${encodeURIComponent(`${sentinel.url}/secret`)}`) });
    expect(status).toBe(403);
    expect(body.code).toBe('URL_BLOCKED');
    expect(sentinel.connections()).toBe(0);
  });

  it('captures a page that loads private resources without any of them reaching the private server', async () => {
    const { status, body } = await screenshot({ url: fixture(`/private-resources?target=${encodeURIComponent(sentinel.url)}`), fullPage: true });
    expect(status).toBe(200);
    expect(body.data.page.title).toBe('Private resources');
    expect(sentinel.connections()).toBe(0);
  });
});

describe('screenshot formats in scrape', () => {
  it('returns a screenshot URL next to the content and charges for it', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/shot/colors'), formats: ['markdown', 'screenshot'] } });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('Colour blocks at known places.');
    expect(body.data.metadata).toMatchObject({ renderer: 'browser', creditsUsed: 3 });
    const image = await download(body.data.screenshot);
    expect(dimensions(image.bytes)).toMatchObject({ width: 1280, height: 800 });
    expect(pixel(image.bytes, ...centre(SHOT.red))).toEqual(SHOT.red.rgb);
  });

  it('takes the full page with screenshot@fullPage', async () => {
    const { body } = await api('/v1/scrape', { body: { url: fixture('/shot/tall'), formats: ['screenshot@fullPage'] } });
    expect(Object.keys(body.data).sort()).toEqual(['metadata', 'screenshot']);
    expect(dimensions((await download(body.data.screenshot)).bytes).height).toBe(SHOT.tallHeight);
  });

  it('refuses screenshots with engine http', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/shot/colors'), formats: ['screenshot'], engine: 'http' } });
    expect(status).toBe(400);
    expect(body.details[0].path).toBe('engine');
  });
});
