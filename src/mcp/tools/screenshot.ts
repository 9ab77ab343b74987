import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defineTool } from '../tool';

/** Largest image put in the result itself (the per-image limit of common model APIs); larger ones are linked. */
const MAX_INLINE_IMAGE_BYTES = 5 * 1024 * 1024;

export const screenshotTool = defineTool({
  name: 'screenshot',
  title: 'Screenshot a page',
  description: `Capture a page in headless Chromium and return the image, with its URL, size and the page's final URL, status code and title. Capture the viewport (default 1280×800), the full page, or one element (\`selector\`).`,
  input: {
    url: z.string().describe('The page to capture.'),
    fullPage: z.boolean().optional(),
    viewport: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
    mobile: z.boolean().optional().describe('Emulate a phone.'),
    format: z.enum(['png', 'jpeg']).optional(),
    quality: z.number().int().optional().describe('JPEG quality, 1-100.'),
    selector: z.string().optional().describe('Capture the first visible element this CSS selector matches.'),
    waitFor: z.number().int().optional().describe('Milliseconds to wait after the page settled.'),
    timeout: z.number().int().optional(),
  },
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run(params, { api }) {
    const { data } = await api.post('/v1/screenshot', params);
    const summary = { url: data.url, width: data.width, height: data.height, format: data.format, bytes: data.bytes, page: data.page, expiresAt: data.expiresAt, ...(data.warning && { warning: data.warning }) };
    const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(summary, null, 2) }] };
    if (data.bytes > MAX_INLINE_IMAGE_BYTES) {
      result.content.push({ type: 'text', text: `The image (${data.bytes} bytes) is larger than ${MAX_INLINE_IMAGE_BYTES} bytes, so it is not included here; it is at ${data.url} until ${data.expiresAt}.` });
      return result;
    }
    const image = await api.image(data.url);
    result.content.push({ type: 'image', data: image.bytes.toString('base64'), mimeType: image.mimeType });
    return result;
  },
});
