import type { Readable } from 'node:stream';

/** An image as read back from storage, streamed rather than buffered. */
export interface StoredObject {
  body: Readable;
  bytes: number;
}

/**
 * Where screenshot images live. Keys are opaque to the store; the screenshots table decides
 * which keys exist and until when. Every method is idempotent: a retried activity may put the
 * same key twice, and cleanup may delete a key that is already gone.
 */
export interface ImageStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  delete(keys: string[]): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}
