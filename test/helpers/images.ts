import { PNG } from 'pngjs';
import { imageSize } from 'image-size';

/** Downloads an image URL the way a browser would: no API key. */
export async function download(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

export function dimensions(bytes: Buffer): { width: number; height: number; type: string } {
  const { width, height, type } = imageSize(bytes);
  return { width, height, type: type ?? 'unknown' };
}

/** The RGB of one pixel of a PNG. */
export function pixel(png: Buffer, x: number, y: number): [number, number, number] {
  const image = PNG.sync.read(png);
  const i = (image.width * y + x) * 4;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
