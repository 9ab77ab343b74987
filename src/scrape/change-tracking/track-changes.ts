import type { Db } from '../../db/client';
import type { PageRow } from '../../db/page-row';
import type { ChangeTrackingResult } from './change-result';
import { compareCopies } from './compare-copies';
import { findPreviousCopy } from './previous-copy';

/** How a page's copies are compared: which modes, and which history (tag). */
export interface TrackingSpec {
  /** git-diff and/or json. */
  modes: readonly ('git-diff' | 'json')[];
  /** Comparison history. */
  tag?: string;
}

/**
 * The changeTracking result of a stored page: compared with the team's newest earlier copy of
 * the same URL, cleaned the same way (`variant`) and under the same tag. Reads only, so it gives
 * the same answer whenever it runs.
 */
export async function trackChanges(db: Db, teamId: string, row: PageRow, variant: string, spec: TrackingSpec): Promise<ChangeTrackingResult> {
  const scrapedAt = row.scrapedAt ?? row.createdAt;
  const previous = await findPreviousCopy(db, { teamId, urlKey: row.urlKey, variant, pageId: row.id, scrapedAt, ...(spec.tag && { tag: spec.tag }) });
  return compareCopies({ markdown: row.markdown ?? '', statusCode: row.statusCode ?? 0, json: row.json }, previous, spec.modes);
}
