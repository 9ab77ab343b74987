import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import { imageSize } from 'image-size';
import type { Db, Tx } from '../db/client';
import { screenshots } from '../db/schema';
import type { ImageStore } from './image-store';
import type { ScreenshotDetails } from '../db/screenshot-details';
import { SCREENSHOT_FORMATS, type CapturedImage } from '../browser/captured-image';
import { newScreenshotId, screenshotFileName } from './screenshot-ids';

export type ScreenshotRow = typeof screenshots.$inferSelect;

export interface ScreenshotOwner {
  teamId: string;
  jobId?: string;
}

export interface ScreenshotStoreConfig {
  /** Base of the image URLs (PUBLIC_URL). */
  publicUrl: string;
  ttlSeconds: number;
}

/** Rows deleted per round of cleanup, so one round stays a short transaction. */
const CLEANUP_BATCH = 500;

/** Screenshots as rows (who, until when) plus objects in an ImageStore (the bytes). */
export class ScreenshotStore {
  constructor(
    private readonly db: Db,
    readonly images: ImageStore,
    private readonly config: ScreenshotStoreConfig,
  ) {}

  /** A SaveImage for renders of this owner: stores each capture and answers its URL. */
  saverFor(owner: ScreenshotOwner): (image: CapturedImage) => Promise<string> {
    return async (image) => this.url(await this.save(image, owner));
  }

  /**
   * Stores the image, then its row in a transaction that `alongside` may extend (a charge, the
   * job's completion). When that transaction fails the object is removed again.
   */
  async save(image: CapturedImage, owner: ScreenshotOwner, details?: ScreenshotDetails, alongside?: (tx: Tx, row: ScreenshotRow) => Promise<void>): Promise<ScreenshotRow> {
    const id = newScreenshotId();
    const key = screenshotFileName(id, image.format);
    const { width, height } = imageSize(image.bytes);
    await this.images.put(key, image.bytes, SCREENSHOT_FORMATS[image.format]);
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(screenshots)
          .values({
            id,
            teamId: owner.teamId,
            jobId: owner.jobId,
            storageKey: key,
            format: image.format,
            width,
            height,
            bytes: image.bytes.length,
            details,
            expiresAt: new Date(Date.now() + this.config.ttlSeconds * 1000),
          })
          .returning();
        await alongside?.(tx, row!);
        return row!;
      });
    } catch (err) {
      await this.images.delete([key]).catch(() => {});
      throw err;
    }
  }

  url(row: Pick<ScreenshotRow, 'id' | 'format'>): string {
    return `${this.config.publicUrl}/v1/screenshots/${screenshotFileName(row.id, row.format)}`;
  }

  /** A screenshot that has not expired. */
  async findLive(id: string): Promise<ScreenshotRow | undefined> {
    const [row] = await this.db.select().from(screenshots).where(and(eq(screenshots.id, id), gt(screenshots.expiresAt, new Date())));
    return row;
  }

  /** The screenshot a job saved first (POST /v1/screenshot saves exactly one). */
  async findByJob(jobId: string): Promise<ScreenshotRow | undefined> {
    const [row] = await this.db.select().from(screenshots).where(eq(screenshots.jobId, jobId)).orderBy(screenshots.createdAt).limit(1);
    return row;
  }

  /**
   * Deletes expired objects, then their rows, in batches; returns how many went. Objects go
   * first, so a crash between the two leaves rows the next run deletes again, never an object
   * without a row.
   */
  async deleteExpired(onBatch: () => void = () => {}): Promise<number> {
    let deleted = 0;
    for (;;) {
      const expired = await this.db
        .select({ id: screenshots.id, key: screenshots.storageKey })
        .from(screenshots)
        .where(lte(screenshots.expiresAt, new Date()))
        .limit(CLEANUP_BATCH);
      if (expired.length === 0) return deleted;
      await this.images.delete(expired.map((e) => e.key));
      await this.db.delete(screenshots).where(inArray(screenshots.id, expired.map((e) => e.id)));
      deleted += expired.length;
      onBatch();
      if (expired.length < CLEANUP_BATCH) return deleted;
    }
  }
}
