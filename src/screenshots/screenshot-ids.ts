import { randomBytes } from 'node:crypto';
import type { ImageFormat } from '../browser/captured-image';

/** 128 random bits, hex: the unguessable part of an image URL. */
export function newScreenshotId(): string {
  return randomBytes(16).toString('hex');
}

/** The file name an image is served and stored under: `<id>.png` or `<id>.jpeg`. */
export function screenshotFileName(id: string, format: ImageFormat): string {
  return `${id}.${format}`;
}

/** Splits a requested file name into id and format, or null when it cannot be one of ours. */
export function parseScreenshotFileName(name: string): { id: string; format: ImageFormat } | null {
  const m = /^([0-9a-f]{32})\.(png|jpeg)$/.exec(name);
  return m ? { id: m[1]!, format: m[2] as ImageFormat } : null;
}
