import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshots } from '../../src/db/schema';
import { SHOT } from '../fixtures/screenshot-pages';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { dimensions, download, pixel } from '../helpers/images';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';
import { testTemporal } from '../helpers/temporal';

const BUCKET = 'wcs-shots';
const PREFIX = 'test-shots/';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * SCREENSHOT_STORAGE=s3 against a local server that speaks the S3 protocol (s3rver), with its
 * own API and worker: images go to the bucket, are served from it, and the Schedule deletes them.
 */
describe('screenshots in an S3-compatible bucket', () => {
  let s3: S3rver;
  let s3Dir: string;
  let endpoint: string;
  let stack: Stack;

  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-s3-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
    endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
    stack = await startOwnStack('screenshot-s3', {
      allowPrivateHosts: [new URL(inject('fixtureUrl')).host],
      env: {
        SCREENSHOT_STORAGE: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: BUCKET,
        S3_PREFIX: PREFIX,
        S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await s3?.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('stores the image as an object, serves it, and deletes it once expired', async () => {
    const { status, body } = await api('/v1/screenshot', { body: { url: fixture('/shot/colors') }, baseUrl: stack.apiUrl });
    expect(status).toBe(200);
    const key = `${PREFIX}${path.basename(new URL(body.data.url).pathname)}`;
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
    const head = () => client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    try {
      expect((await head()).ContentType).toBe('image/png');
      const image = await download(body.data.url);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(dimensions(image.bytes)).toMatchObject({ width: 1280, height: 800 });
      expect(pixel(image.bytes, SHOT.red.x + 5, SHOT.red.y + 5)).toEqual(SHOT.red.rgb);

      const id = path.basename(key, '.png');
      await testDatabase().db.update(screenshots).set({ expiresAt: new Date(0) }).where(eq(screenshots.id, id));
      expect((await download(body.data.url)).status).toBe(404);
      await (await testTemporal()).schedule.getHandle(`${stack.queuePrefix}-screenshot-cleanup`).trigger();
      await expect.poll(() => head().then(() => 'present', (err: Error) => err.name), { timeout: 30_000, interval: 250 }).toBe('NotFound');
    } finally {
      client.destroy();
    }
  });
});
