import type { TestProject } from 'vitest/node';
import { extractPages } from '../fixtures/extract-pages';
import { startFixtureServer } from '../fixtures/fixture-server';
import { scrapePages } from '../fixtures/scrape-pages';
import { screenshotPages } from '../fixtures/screenshot-pages';
import { startEnvironment } from '../helpers/environment';

const log = (message: string) => console.log(`[test setup] ${message}`);

/**
 * Whole loopback addresses let through the gate for sites a test file starts itself (crawl
 * sites, webhook receivers). 127.0.0.1 stays blocked but for the shared fixture server, so a
 * "private" server on it is really private.
 */
const SITE_HOSTS = ['127.0.0.2', '127.0.0.3'];

/**
 * Brings up the real stack once per test run (see startEnvironment) with the fixture site let
 * through the public-URL gate, and hands its addresses and keys to the test files.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fixtures = await startFixtureServer({ ...(await scrapePages()), ...screenshotPages(), ...extractPages() });
  let env;
  try {
    env = await startEnvironment({
      kind: 'test',
      allowPrivateHosts: [`127.0.0.1:${fixtures.port}`, ...SITE_HOSTS],
      // Low enough that every sizeable crawl in the suite continues as new, more than once.
      temporalConfig: { 'limit.historyCount.suggestContinueAsNew': 150 },
      // Reconciling often, so a test sees a job whose workflow was terminated reconciled within
      // seconds. The shared stack serves every file's crawls and scrapes at once, mostly as one
      // team, so the fairness and backpressure limits are off there (as the rate limit is, in
      // stack.ts); the files that test them set them (fairness per team with `wcs limits`).
      stackEnv: { RECONCILE_INTERVAL_SECONDS: '2', TEAM_PAGES_IN_FLIGHT: '10000' },
      log,
    });
  } catch (err) {
    await fixtures.close();
    throw err;
  }
  log(`stack ready at ${env.stack.apiUrl}; logs in ${env.logDir}`);

  project.provide('apiUrl', env.stack.apiUrl);
  project.provide('apiMetricsUrl', env.stack.apiMetricsUrl);
  project.provide('workerMetricsUrl', env.stack.workerMetricsUrl);
  project.provide('apiKey', env.team.key);
  project.provide('teamId', env.team.teamId);
  project.provide('brokeKey', env.broke.key);
  project.provide('databaseUrl', env.databaseUrl);
  project.provide('temporalAddress', env.temporal.address);
  project.provide('temporalUiUrl', env.temporal.uiUrl);
  project.provide('chromiumPath', env.chromiumPath);
  project.provide('fixtureUrl', fixtures.url);
  project.provide('queuePrefix', env.queuePrefix);
  project.provide('logDir', env.logDir);
  project.provide('siteHosts', SITE_HOSTS);
  return async () => {
    await env.stop();
    await fixtures.close();
  };
}
