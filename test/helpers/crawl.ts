import { expect } from 'vitest';
import { api } from './api';

/** Polls GET /v1/crawl/:id until the crawl leaves `scraping`; returns the last status answer. */
export async function waitForCrawl(id: string, o: { timeoutMs?: number; key?: string; baseUrl?: string } = {}): Promise<any> {
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  for (;;) {
    const { status, body } = await api(`/v1/crawl/${id}`, { ...(o.key && { key: o.key }), ...(o.baseUrl && { baseUrl: o.baseUrl }) });
    expect(status).toBe(200);
    if (body.status !== 'scraping') return body;
    if (Date.now() > deadline) throw new Error(`crawl ${id} still scraping after ${o.timeoutMs ?? 60_000} ms: ${JSON.stringify({ ...body, data: body.data.length })}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every document of a crawl, following `next`. */
export async function allDocuments(id: string): Promise<any[]> {
  const docs: any[] = [];
  let path: string | undefined = `/v1/crawl/${id}`;
  while (path) {
    const { body }: { body: any } = await api(path);
    docs.push(...body.data);
    path = body.next ? new URL(body.next).pathname + new URL(body.next).search : undefined;
  }
  return docs;
}

export interface Expectation {
  /** Path → link hops from the start, for every page the crawl should fetch. */
  reached: Map<string, number>;
  /** Paths robots.txt keeps the crawl from. */
  blocked: Set<string>;
}

/**
 * What a breadth-first crawl of a fixture site must reach, computed independently of the
 * service from the site's own link table: same host, no assets, robots-blocked paths recorded
 * but not followed, at most `maxDepth` hops.
 */
export function expectedCrawl(
  linksOf: (path: string) => string[],
  o: { start: string; maxDepth: number; isBlocked: (path: string) => boolean; admits?: (path: string) => boolean },
): Expectation {
  const reached = new Map<string, number>([[o.start, 0]]);
  const blocked = new Set<string>();
  let frontier = [o.start];
  for (let depth = 1; depth <= o.maxDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const path of frontier) {
      for (const link of linksOf(path)) {
        if (!link.startsWith('/') || link.endsWith('.png') || reached.has(link) || blocked.has(link)) continue;
        if (o.admits && !o.admits(link)) continue;
        if (o.isBlocked(link)) {
          blocked.add(link);
          continue;
        }
        reached.set(link, depth);
        next.push(link);
      }
    }
    frontier = next;
  }
  return { reached, blocked };
}

/** The site's robots.txt rules, as the fixture states them. */
export function fixtureRobotsBlock(path: string): boolean {
  return path.startsWith('/private/') && path !== '/private/open';
}
