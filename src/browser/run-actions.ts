import type { Page } from 'playwright';
import { AppError } from '../errors';
import type { Action } from '../scrape/actions';
import type { ActionResults } from '../db/page-metadata';
import type { CapturedImage } from './captured-image';
import { capturePage, type CaptureLimits } from './capture';

/** What the actions produced; the screenshots are images still to be stored, in order. */
export interface ActionOutput {
  images: CapturedImage[];
  scrapes: ActionResults['scrapes'];
  javascriptReturns: ActionResults['javascriptReturns'];
}

/** How long a click, scroll or similar step waits for its element; `wait` with a selector gets longer. */
const STEP_TIMEOUT_MS = 5_000;
const WAIT_SELECTOR_MAX_MS = 30_000;
/** Upper bound on waiting for what a click or key press set off. */
const SETTLE_MAX_MS = 2_000;

/** Playwright's first line, without its call log. */
function reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/^\w+\.\w+: /, '');
}

async function runOne(page: Page, action: Action, ctx: CaptureLimits, results: ActionOutput): Promise<void> {
  const step = () => Math.min(STEP_TIMEOUT_MS, ctx.remainingMs());
  switch (action.type) {
    case 'wait':
      if (action.selector) await page.locator(action.selector).first().waitFor({ state: 'visible', timeout: Math.min(WAIT_SELECTOR_MAX_MS, ctx.remainingMs()) });
      else await page.waitForTimeout(Math.min(action.milliseconds!, ctx.remainingMs()));
      return;
    case 'click':
      if (action.all) {
        for (const element of await page.locator(action.selector).all()) await element.click({ timeout: step() });
      } else {
        await page.locator(action.selector).first().click({ timeout: step() });
      }
      await ctx.network.quiet(Math.min(SETTLE_MAX_MS, ctx.remainingMs()));
      return;
    case 'write':
      await page.keyboard.type(action.text);
      return;
    case 'press':
      await page.keyboard.press(action.key);
      await ctx.network.quiet(Math.min(SETTLE_MAX_MS, ctx.remainingMs()));
      return;
    case 'scroll': {
      const sign = action.direction === 'up' ? -1 : 1;
      if (action.selector) {
        await page.locator(action.selector).first().evaluate((el, s) => el.scrollBy(0, s * el.clientHeight), sign, { timeout: step() });
      } else {
        await page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
      }
      return;
    }
    case 'screenshot': {
      const format = action.quality === undefined ? 'png' : 'jpeg';
      const { image } = await capturePage(page, { format, quality: action.quality, fullPage: action.fullPage }, ctx);
      results.images.push(image);
      return;
    }
    case 'scrape':
      results.scrapes.push({ url: page.url(), html: await page.content() });
      return;
    case 'executeJavascript': {
      const value: unknown = await page.evaluate(`(async () => {\n${action.script}\n})()`);
      results.javascriptReturns.push({ type: typeof value, value: value ?? null });
      return;
    }
  }
}

/**
 * Runs a scrape's actions in order. A failing action stops the run with SCRAPE_ACTION_ERROR
 * naming its index; a closed page (browser crash, deadline) is passed on unchanged, so the
 * activity retries or reports the timeout.
 */
export async function runActions(page: Page, actions: readonly Action[], ctx: CaptureLimits): Promise<ActionOutput> {
  const results: ActionOutput = { images: [], scrapes: [], javascriptReturns: [] };
  for (const [index, action] of actions.entries()) {
    try {
      await runOne(page, action, ctx, results);
    } catch (err) {
      if (page.isClosed() || !page.context().browser()?.isConnected()) throw err;
      const message = `Action ${index} (${action.type}) failed: ${reason(err)}`;
      throw new AppError('SCRAPE_ACTION_ERROR', message, [{ path: `actions.${index}`, message: reason(err) }]);
    }
  }
  return results;
}
