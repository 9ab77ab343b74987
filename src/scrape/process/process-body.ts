import { decodeBody } from '../decode-body';
import { contentKind } from './content-kind';
import { processHtml } from './process-html';
import { processPdf } from './process-pdf';
import { processPlain } from './process-plain';
import type { ProcessedContent, ProcessOptions } from './processed-content';

/** Turns any fetched body into content, by what kind of document it is. */
export async function processBody(
  body: Uint8Array,
  contentType: string,
  pageUrl: string,
  options: ProcessOptions,
): Promise<ProcessedContent> {
  const kind = contentKind(contentType, body);
  switch (kind) {
    case 'pdf':
      return processPdf(body);
    case 'html':
      return processHtml(decodeBody(body, contentType, true).text, pageUrl, options);
    case 'json':
    case 'xml':
    case 'text':
      return processPlain(decodeBody(body, contentType, false).text, kind);
    case 'unsupported':
      return {
        ...processPlain('', 'text'),
        markdown: '',
        warning: `Content type ${contentType || 'unknown'} has no text representation; only metadata is returned.`,
      };
  }
}
