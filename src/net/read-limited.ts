import { AppError } from '../errors';

/** Reads a body stream into memory, refusing it as soon as it passes `maxBytes`. */
export async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number, url: string): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AppError('SCRAPE_TOO_LARGE', `${url} is larger than the ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
