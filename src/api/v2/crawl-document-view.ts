import type { DocumentView } from '../routes/crawl';
import { v2OutputOfV1 } from './crawl-request';
import { toV2Document, v2DocumentSchema, type V2Document } from '../../firecrawl/v2/document';

/** Stored pages of a crawl or batch as v2 documents, whichever API version started the job. */
export const v2DocumentView: DocumentView<V2Document> = {
  render: (row, options) => toV2Document(row, options.v2Output ?? v2OutputOfV1(options.scrapeOptions.formats)),
  schema: v2DocumentSchema,
};
