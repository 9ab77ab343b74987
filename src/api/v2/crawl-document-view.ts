import type { DocumentView } from '../routes/crawl';
import { v2OutputOfV1 } from './crawl-request';
import { v2DocumentSchema, type V2Document } from '../../firecrawl/v2/document';
import { renderV2Document } from '../../firecrawl/v2/render-document';

/**
 * Stored pages of a crawl or batch as v2 documents, whichever API version started the job.
 * Answers are quoted passages: an LLM's answer per page on every read would be charged again
 * and again, so only a scrape (or search) asks the LLM.
 */
export const v2DocumentView: DocumentView<V2Document> = {
  render: (row, options, db) => renderV2Document(db, row, options.v2Output ?? v2OutputOfV1(options.scrapeOptions.formats)),
  schema: v2DocumentSchema,
};
