import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseHostAllowlist, type HostAllowlist } from '../net/host-allowlist';

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');
const csv = z
  .string()
  .default('')
  .transform((s) => s.split(',').map((p) => p.trim()).filter(Boolean));

/** Settings of the MCP server, which `wcs mcp` reads on its own (it needs no database). */
const mcpEnvShape = {
  /** Most characters of one MCP tool result; a longer result is cut, and says what was kept and how to get the rest. */
  MCP_RESULT_MAX_CHARS: int(20_000, 1_000),
  /**
   * Seconds the MCP crawl and extract tools wait for their job before answering with its progress
   * so far: under the 60 s an MCP client waits for a tool call by default.
   */
  MCP_WAIT_SECONDS: int(50, 1),
};

/**
 * Every environment variable the API and the worker read. A test keeps the configuration table
 * of docs/operations.md in step with these names.
 */
const envSchema = z
  .object({
    /** Port the API listens on. */
    PORT: int(3002, 1).refine((p) => p <= 65535, 'must be a TCP port (1-65535)'),
    /** Interface the API (and a worker's metrics listener) binds; set 0.0.0.0 in containers. */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** Base URL clients reach the API at; used in `next` links and image URLs. */
    PUBLIC_URL: z.url().optional(),
    /** Directory for local state: dev key, screenshots, Temporal's dev database. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** Postgres connection string. */
    DATABASE_URL: z.url({ error: 'must be a postgres:// connection URL' }).refine(
      (u) => /^postgres(ql)?:\/\//.test(u),
      'must start with postgres:// or postgresql://',
    ),
    /** Maximum Postgres connections per process. */
    DATABASE_POOL_SIZE: int(10, 1),
    /** Temporal frontend address, host:port. */
    TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port').default('127.0.0.1:7233'),
    /** Temporal namespace. */
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    /** Prefix of the task queues: `<prefix>-http`, `<prefix>-browser` and `<prefix>-scrape` (single scrapes). */
    TEMPORAL_TASK_QUEUE_PREFIX: z.string().regex(/^[\w.-]+$/, 'letters, digits, dot, dash, underscore').default('wcs'),
    /**
     * The API runs the scrapes it starts in a Temporal worker of its own, started eagerly: the
     * start call brings the scrape's first workflow task back and the API runs it at once,
     * without the trip through the task queue and a worker's poll. Worker processes poll the
     * same queue, so scrapes go on when the API's worker is busy or down. `false`: only worker
     * processes scrape, and the API holds no processing threads.
     */
    EAGER_SCRAPES: bool(true),
    /** Which task queues this worker process polls. */
    WORKER_QUEUES: csv.pipe(z.array(z.enum(['http', 'browser'])).min(1, 'name at least one of http, browser')).default(['http', 'browser']),
    /** Chromium or Chrome executable; found automatically when unset. */
    CHROMIUM_PATH: z.string().optional(),
    /** Concurrent browser pages per worker. */
    BROWSER_MAX_PAGES: int(4, 1),
    /** Restart Chromium after this many pages, to bound its memory. */
    BROWSER_RESTART_AFTER_PAGES: int(500, 1),
    /** Where screenshot images are kept: `fs` (files under DATA_DIR/screenshots) or `s3` (any S3-compatible store). */
    SCREENSHOT_STORAGE: z.enum(['fs', 's3']).default('fs'),
    /** Seconds a screenshot URL stays valid (default 24 h). */
    SCREENSHOT_TTL_SECONDS: int(86_400, 1),
    /** Seconds between runs of the Temporal Schedule that deletes expired screenshots. */
    SCREENSHOT_CLEANUP_INTERVAL_SECONDS: int(3_600, 1),
    /** Tallest full-page capture, in image pixels; taller pages are cut with a `warning`. */
    SCREENSHOT_MAX_HEIGHT: int(16_384, 100),
    /** S3 endpoint for SCREENSHOT_STORAGE=s3 (MinIO, R2, ...); unset means AWS itself. */
    S3_ENDPOINT: z.url().optional(),
    /** S3 region (`auto` for R2). */
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Bucket that holds the screenshots; required with SCREENSHOT_STORAGE=s3. */
    S3_BUCKET: z.string().min(1).optional(),
    /** Key prefix of screenshot objects in the bucket. */
    S3_PREFIX: z.string().default('screenshots/'),
    /** S3 access key; the AWS SDK's default credential chain when unset. */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    /** S3 secret key, with S3_ACCESS_KEY_ID. */
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Path-style bucket addressing (MinIO needs it; AWS and R2 accept it). */
    S3_FORCE_PATH_STYLE: bool(true),
    /** Most pages one crawl batch activity takes (each heartbeats per page). */
    CRAWL_BATCH_SIZE: int(20, 1),
    /**
     * Threads that turn fetched pages into markdown, text and links: one per core, at most 4 by
     * default, since each holds a heap of its own and a container may see all of its host's cores.
     */
    PROCESSING_THREADS: int(Math.min(availableParallelism(), 4), 1),
    /**
     * Most milliseconds of a processing thread one page may take (less when the page's own
     * timeout leaves less); past it the thread is stopped and the page's plain text is returned.
     */
    PROCESSING_TIMEOUT_MS: int(10_000, 100),
    /**
     * Most MB of old-generation heap one processing thread may hold. Without a cap V8 lets each
     * thread's heap grow toward its own default (gigabytes) before it collects hard. It also
     * bounds a page's DOM (160 elements and text nodes per MB, see ProcessingPool): a larger page
     * comes back as its plain text, so that no page drives a thread into the limit.
     */
    PROCESSING_THREAD_HEAP_MB: int(512, 64),
    /**
     * Most links kept of one page: returned, followed by a crawl, stored. The rest are counted in
     * `metadata.linksTotal`. A page's links cost a URL parse, a frontier lookup and stored bytes
     * each; real index pages stay within a few thousand.
     */
    MAX_LINKS_PER_PAGE: int(5_000, 1),
    /** Most crawl batches in flight against one host (one when it has a delay). */
    CRAWL_HOST_CONCURRENCY: int(10, 1),
    /** Test-only: `host` or `host:port` entries that may be fetched although not public. */
    ALLOW_PRIVATE_HOSTS: z
      .string()
      .default('')
      .transform((s, ctx): HostAllowlist => {
        try {
          return parseHostAllowlist(s);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: (e as Error).message });
          return z.NEVER;
        }
      }),
    /** User-Agent sent with every fetch unless the request overrides it. */
    USER_AGENT: z.string().min(1).default('Mozilla/5.0 (compatible; web-context-service/0.1; +https://github.com/web-context-service)'),
    /** Largest page body fetched, and largest HTML taken from a rendered page, in bytes (SCRAPE_TOO_LARGE past it). */
    MAX_PAGE_BYTES: int(10 * 1024 * 1024, 1024),
    /** Largest request body the API accepts, in bytes. */
    MAX_BODY_BYTES: int(1024 * 1024, 1024),
    /** Largest file POST /v2/parse accepts (the whole multipart upload), in bytes. */
    PARSE_MAX_BYTES: int(10 * 1024 * 1024, 1024),
    /** Requests per minute per API key, counted in Postgres across API replicas; 0 disables the limit. */
    RATE_LIMIT_PER_MINUTE: int(600),
    /** Requests per minute of all of one team's keys together; 0: no team-wide limit. `wcs limits set` overrides both per team. */
    TEAM_RATE_LIMIT_PER_MINUTE: int(0),
    /**
     * Pages one team's crawls and batches fetch at once, across all workers; the rest of its
     * crawls wait their turn (each crawl batch fetches one page at a time).
     */
    TEAM_PAGES_IN_FLIGHT: int(16, 1),
    /**
     * Scrapes and screenshots accepted and not yet finished across the deployment (queued in
     * Temporal or running) past which new ones are refused with 503 and a `Retry-After` from the
     * rate they finish at: the bound of the queue, so a flood cannot grow it without end. 0: no bound.
     */
    MAX_QUEUED_SCRAPES: int(1000),
    /** Hours a job's results stay readable. */
    JOB_TTL_HOURS: int(24, 1),
    /** pino log level. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Enables the OpenAPI docs page at /docs. */
    DOCS_ENABLED: bool(true),
    /** Port of the worker's Prometheus /metrics listener (on HOST); 0 turns it off. */
    WORKER_METRICS_PORT: int(9464).refine((p) => p <= 65535, 'must be a TCP port (0-65535)'),
    /** Port of the Temporal SDK's Prometheus exporter in the worker (on 127.0.0.1); its series are also on WORKER_METRICS_PORT. 0 turns it off. */
    TEMPORAL_METRICS_PORT: int(9465).refine((p) => p <= 65535, 'must be a TCP port (0-65535)'),
    /**
     * Port of the API's Prometheus /metrics listener (on HOST), apart from PORT: the public port
     * serves no operational data. 0 turns it off.
     */
    API_METRICS_PORT: int(9467).refine((p) => p <= 65535, 'must be a TCP port (0-65535)'),
    /** The same for the API's own scrape worker (EAGER_SCRAPES); its series are also on API_METRICS_PORT. 0 turns it off. */
    API_TEMPORAL_METRICS_PORT: int(9466).refine((p) => p <= 65535, 'must be a TCP port (0-65535)'),
    /** OTLP/HTTP collector base URL (e.g. http://127.0.0.1:4318); set, the API and worker export traces there. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    /** Seconds between the worker's checks of unfinished jobs against their Temporal workflows. */
    RECONCILE_INTERVAL_SECONDS: int(60, 1),
    /** Milliseconds between the worker's passes that put newly stored pages in the local search index. */
    SEARCH_INDEX_INTERVAL_MS: int(1_000, 50),
    /** OpenAI-compatible Chat Completions base URL for extraction (Ollama: http://127.0.0.1:11434/v1); unset: no LLM. */
    LLM_BASE_URL: z.url().optional(),
    /** API key sent to LLM_BASE_URL; servers that ignore keys (Ollama) need none. */
    LLM_API_KEY: z.string().optional(),
    /** Model name at LLM_BASE_URL, e.g. gpt-4o-mini or llama3.1; required with LLM_BASE_URL. */
    LLM_MODEL: z.string().min(1).optional(),
    /** Tokens the model reads per request; longer pages are split into chunks that fit. */
    LLM_CONTEXT_TOKENS: int(8192, 1024),
    /** json_schema (structured output), json_object (JSON mode, then validation) or auto (json_schema, json_object when refused). */
    LLM_RESPONSE_FORMAT: z.enum(['auto', 'json_schema', 'json_object']).default('auto'),
    /** Milliseconds one LLM request may take. */
    LLM_TIMEOUT_MS: int(120_000, 1_000),
    /** Tokens (the replies' usage.total_tokens, summed) an agent run's model turns may use; reached, the run stops failed. */
    AGENT_LLM_MAX_TOKENS: int(100_000, 1_000),
    /**
     * Seconds an agent run's model loop may take, from the run's start; reached, the run stops
     * failed (a turn in flight is cut off). At most 25 minutes: the run's own timeout is 30.
     */
    AGENT_LLM_MAX_SECONDS: int(600, 5).refine((s) => s <= 1_500, 'must be at most 1500 (25 minutes; an agent run times out at 30)'),
    /** Search providers, tried in order until one answers: local (this deployment's pages), searxng, serper. */
    SEARCH_PROVIDER: csv
      .pipe(z.array(z.enum(['local', 'searxng', 'serper'])).min(1, 'name at least one of local, searxng, serper'))
      .default(['local']),
    /** Base URL of a SearXNG instance with the json format enabled (SearXNG's container listens on 8080). */
    SEARXNG_URL: z.url().default('http://127.0.0.1:8080'),
    /** Serper (serper.dev) API key; needed for serper. */
    SERPER_API_KEY: z.string().min(1).optional(),
    /** Serper's API base URL. */
    SERPER_URL: z.url().default('https://google.serper.dev'),
    /** Milliseconds one search provider may take before the next in SEARCH_PROVIDER is asked. */
    SEARCH_PROVIDER_TIMEOUT_MS: int(10_000, 100),
    /**
     * SMTP server that monitors' email notifications go through: smtp://user:pass@host:587
     * (STARTTLS when offered) or smtps://user:pass@host:465; unset, monitors refuse email.
     */
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587' })
      .optional(),
    /** Sender of monitor emails, e.g. "Monitors <monitors@example.com>"; required with SMTP_URL. */
    SMTP_FROM: z.string().min(3).optional(),
    ...mcpEnvShape,
  })
  .superRefine((e, ctx) => {
    if (e.SCREENSHOT_STORAGE === 's3' && !e.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when SCREENSHOT_STORAGE=s3' });
    if (e.SEARCH_PROVIDER.includes('serper') && !e.SERPER_API_KEY) ctx.addIssue({ code: 'custom', path: ['SERPER_API_KEY'], message: 'is required when SEARCH_PROVIDER names serper' });
    if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together' });
    }
  });

export type Env = z.infer<typeof envSchema>;

/** The LLM extraction may use; present only when LLM_BASE_URL and LLM_MODEL are set. */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  contextTokens: number;
  responseFormat: 'auto' | 'json_schema' | 'json_object';
  timeoutMs: number;
}

/** Where monitor emails go out; present only when SMTP_URL and SMTP_FROM are set. */
export interface SmtpConfig {
  url: string;
  from: string;
}

export interface Config extends Omit<Env, 'DATA_DIR' | 'PUBLIC_URL'> {
  DATA_DIR: string;
  PUBLIC_URL: string;
  taskQueues: { http: string; browser: string; scrape: string };
  llm?: LlmConfig;
  smtp?: SmtpConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function configError(issues: z.core.$ZodIssue[], env: NodeJS.ProcessEnv): ConfigError {
  return new ConfigError(
    issues.map((i) => {
      const name = String(i.path[0] ?? '');
      const value = env[name];
      return `${name}: ${i.message}${value === undefined ? ' (not set)' : ` (got ${JSON.stringify(value)})`}`;
    }),
  );
}

export type McpConfig = z.infer<z.ZodObject<typeof mcpEnvShape>>;

/** The MCP settings alone, validated as loadConfig validates them, for `wcs mcp`. */
export function loadMcpConfig(env: NodeJS.ProcessEnv = process.env): McpConfig {
  const input = Object.fromEntries(Object.keys(mcpEnvShape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = z.object(mcpEnvShape).safeParse(input);
  if (!parsed.success) throw configError(parsed.error.issues, env);
  return parsed.data;
}

/** Validates the environment once at start; every bad variable is reported, not just the first. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, env[k] === '' && k !== 'ALLOW_PRIVATE_HOSTS' ? undefined : env[k]]),
  );
  const parsed = envSchema
    .superRefine((e, ctx) => {
      if (e.LLM_BASE_URL && !e.LLM_MODEL) ctx.addIssue({ code: 'custom', path: ['LLM_MODEL'], message: 'set it with LLM_BASE_URL (the model to call, e.g. llama3.1)' });
      if (e.LLM_MODEL && !e.LLM_BASE_URL) ctx.addIssue({ code: 'custom', path: ['LLM_BASE_URL'], message: 'set it with LLM_MODEL (e.g. http://127.0.0.1:11434/v1 for Ollama)' });
      if (e.SMTP_URL && !e.SMTP_FROM) ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'set it with SMTP_URL (the sender address, e.g. monitors@example.com)' });
      if (e.SMTP_FROM && !/^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(e.SMTP_FROM.trim())) {
        ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'must be an email address, optionally with a name: "Monitors <monitors@example.com>"' });
      }
    })
    .safeParse(input);
  if (!parsed.success) throw configError(parsed.error.issues, env);
  const e = parsed.data;
  const llm: LlmConfig | undefined =
    e.LLM_BASE_URL && e.LLM_MODEL
      ? {
          baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
          apiKey: e.LLM_API_KEY || 'unused',
          model: e.LLM_MODEL,
          contextTokens: e.LLM_CONTEXT_TOKENS,
          responseFormat: e.LLM_RESPONSE_FORMAT,
          timeoutMs: e.LLM_TIMEOUT_MS,
        }
      : undefined;
  return {
    ...e,
    ...(llm && { llm }),
    ...(e.SMTP_URL && e.SMTP_FROM && { smtp: { url: e.SMTP_URL, from: e.SMTP_FROM.trim() } }),
    DATA_DIR: path.resolve(e.DATA_DIR),
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    taskQueues: {
      http: `${e.TEMPORAL_TASK_QUEUE_PREFIX}-http`,
      browser: `${e.TEMPORAL_TASK_QUEUE_PREFIX}-browser`,
      scrape: `${e.TEMPORAL_TASK_QUEUE_PREFIX}-scrape`,
    },
  };
}

export const configVariables = Object.keys(envSchema.shape);
