import path from 'node:path';
import type { Config } from '../config/env';
import { FsImageStore } from './fs-image-store';
import type { ImageStore } from './image-store';

/**
 * The image store SCREENSHOT_STORAGE names; the API reads from it, the worker writes and deletes.
 * The S3 store (and the AWS SDK, about 13 MB) is loaded only when it is the one named.
 */
export function createImageStore(config: Config): ImageStore {
  if (config.SCREENSHOT_STORAGE === 'fs') return new FsImageStore(path.join(config.DATA_DIR, 'screenshots'));
  const { S3ImageStore } = require('./s3-image-store') as typeof import('./s3-image-store');
  return new S3ImageStore({
    ...(config.S3_ENDPOINT && { endpoint: config.S3_ENDPOINT }),
    region: config.S3_REGION,
    bucket: config.S3_BUCKET!,
    prefix: config.S3_PREFIX,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ACCESS_KEY_ID && { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY! } }),
  });
}
