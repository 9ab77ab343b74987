import 'vitest';

declare module 'vitest' {
  /** Values the global setup hands to every test file. */
  export interface ProvidedContext {
    apiUrl: string;
    /** The shared stack's API /metrics (its own port, API_METRICS_PORT). */
    apiMetricsUrl: string;
    /** The shared stack's worker /metrics. */
    workerMetricsUrl: string;
    apiKey: string;
    teamId: string;
    brokeKey: string;
    databaseUrl: string;
    temporalAddress: string;
    temporalUiUrl: string;
    chromiumPath: string;
    fixtureUrl: string;
    queuePrefix: string;
    logDir: string;
    /** Loopback hosts (not 127.0.0.1) the gate lets through, for servers a test starts itself. */
    siteHosts: string[];
  }
}
