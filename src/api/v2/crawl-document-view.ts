import type { DocumentView } from '../routes/crawl';
import { v2OutputOfV1 } from './crawl-request';
import { v2DocumentSchema, type V2Document } from '../../firecrawl/v2/document';
import { renderV2Document } from '../../firecrawl/v2/render-document';

/**
 * Stored pages of a crawl or batch as v2 documents, whichever API version started the job.
 * With an LLM configured, the answer, product and menu were read (and charged) once, as each
 * page was stored, and are shown as stored; no read asks the LLM.
 */
export const v2DocumentView: DocumentView<V2Document> = {
  render: (row, options, db) => renderV2Document(db, row, options.v2Output ?? v2OutputOfV1(options.scrapeOptions.formats)),
  schema: v2DocumentSchema,
};
