import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageStore, StoredObject } from './image-store';

/** Images as files in one directory (the embedded default: DATA_DIR/screenshots). */
export class FsImageStore implements ImageStore {
  constructor(private readonly dir: string) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Write then rename, so a reader never sees half an image.
    const temporary = `${this.file(key)}.${process.pid}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, this.file(key));
  }

  async get(key: string): Promise<StoredObject | null> {
    const file = this.file(key);
    try {
      const { size } = await stat(file);
      return { body: createReadStream(file), bytes: size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.file(key), { force: true })));
  }

  async close(): Promise<void> {}

  private file(key: string): string {
    if (!/^[\w.-]+$/.test(key)) throw new Error(`invalid image key ${JSON.stringify(key)}`);
    return path.join(this.dir, key);
  }
}
