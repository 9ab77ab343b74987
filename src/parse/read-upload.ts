import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { AppError } from '../errors';

/** A multipart upload as the v2 SDK's parse sends it: an `options` JSON field and a `file`. */
export interface Upload {
  /** The `options` field, parsed; `{}` when absent. */
  options: unknown;
  filename: string;
  /** The type the client sent with the file ('' when none). */
  type: string;
  bytes: Uint8Array;
}

/**
 * Reads a multipart/form-data body of at most `limitBytes` and takes its fields apart with the
 * platform's own multipart parser (the Fetch API's `formData()`).
 */
export async function readUpload(req: IncomingMessage, contentType: string, limitBytes: number): Promise<Upload> {
  let raw: Buffer;
  try {
    raw = await getRawBody(req, { limit: limitBytes, length: req.headers['content-length'] });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw new AppError('PAYLOAD_TOO_LARGE', `The upload is larger than ${limitBytes} bytes (PARSE_MAX_BYTES)`);
    throw new AppError('BAD_REQUEST', `Could not read the upload: ${(err as Error).message}`);
  }
  let form: FormData;
  try {
    form = await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(raw) }).formData();
  } catch (err) {
    throw new AppError('BAD_REQUEST', `The body is not valid multipart/form-data: ${(err as Error).message}`);
  }
  const file = form.get('file');
  if (!(file instanceof File)) throw new AppError('BAD_REQUEST', 'The upload has no `file` part', [{ path: 'file', message: 'required' }]);
  if (file.size === 0) throw new AppError('BAD_REQUEST', 'The uploaded file is empty', [{ path: 'file', message: 'empty' }]);
  const optionsField = form.get('options');
  let options: unknown = {};
  if (typeof optionsField === 'string' && optionsField.trim() !== '') {
    try {
      options = JSON.parse(optionsField);
    } catch (err) {
      throw new AppError('BAD_REQUEST_INVALID_JSON', `The options field is not valid JSON: ${(err as Error).message}`);
    }
  }
  return { options, filename: file.name || 'upload', type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
}
