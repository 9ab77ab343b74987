import { z } from 'zod';
import { ERROR_STATUS } from '../../errors';

/** The one error body every failing call returns (API.md, "Conventions"). */
export const errorSchema = z
  .object({
    success: z.literal(false),
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    error: z.string().describe('A human sentence.'),
    details: z
      .union([
        z.array(z.object({ path: z.string(), message: z.string() })).describe('One entry per invalid field.'),
        z
          .object({ state: z.literal('processing_continues'), retryAfterSeconds: z.number().int(), scrapeId: z.string() })
          .describe('On 408 SCRAPE_TIMEOUT from a scrape: the page is still being worked on; send the same request again after retryAfterSeconds for its document.'),
      ])
      .optional(),
    errorId: z.string().optional().describe('On INTERNAL_ERROR: the id under which the error was logged.'),
  })
  .meta({ id: 'Error' });
