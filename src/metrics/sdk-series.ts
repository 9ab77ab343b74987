import type { Logger } from 'pino';

/** How long a /metrics answer waits on the SDK's exporter before it goes without its series. */
const SDK_EXPORTER_TIMEOUT_MS = 2_000;

/**
 * The Temporal SDK exporter's series (installTemporalRuntime), to append to a process's own
 * /metrics so one scrape target has both; '' when there is no exporter or it did not answer.
 */
export async function temporalSdkSeries(url: string | undefined, logger: Logger): Promise<string> {
  if (!url) return '';
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(SDK_EXPORTER_TIMEOUT_MS) });
    return response.ok ? await response.text() : '';
  } catch (err) {
    logger.warn({ err }, 'the Temporal SDK metrics exporter did not answer');
    return '';
  }
}
