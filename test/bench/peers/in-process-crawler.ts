import * as cheerio from 'cheerio';
import { Agent, request } from 'undici';
import { peerTurndown } from './peer-turndown';

/**
 * The in-process ceiling for crawling in Node on this machine: undici fetch, cheerio link
 * extraction, turndown markdown of the page body, an in-memory frontier. Nothing is durable,
 * nothing is stored, nothing is checked.
 */
export async function inProcessCrawl(start: string, concurrency: number, limit: number): Promise<{ pages: number; ms: number }> {
  const turndown = peerTurndown();
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const origin = new URL(start).origin;
  const seen = new Set([start]);
  const queue = [start];
  let done = 0;
  let active = 0;
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < concurrency && queue.length > 0) {
        const url = queue.shift()!;
        active++;
        request(url, { dispatcher })
          .then(async (res) => {
            const body = await res.body.text();
            const $ = cheerio.load(body, { xml: { xmlMode: false, decodeEntities: true } } as cheerio.CheerioOptions);
            $('a[href]').each((_, el) => {
              const href = new URL($(el).attr('href')!, url);
              href.hash = '';
              if (href.origin === origin && !seen.has(href.href) && seen.size < limit) {
                seen.add(href.href);
                queue.push(href.href);
              }
            });
            $('script, style').remove();
            turndown.turndown($('body').html() ?? '');
            done++;
          })
          .then(() => {
            active--;
            pump();
          }, reject);
      }
    };
    pump();
  });
  const ms = performance.now() - started;
  await dispatcher.close();
  return { pages: done, ms };
}
