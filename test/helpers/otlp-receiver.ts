import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP (JSON) exporter sent it, with its process's service.name. */
export interface ReceivedSpan {
  /** The exporting process's service.name. */
  service: string;
  name: string;
  /** Hex ids, as OTLP/JSON carries them. */
  traceId: string;
  spanId: string;
  /** Absent on a root span. */
  parentSpanId?: string;
}

export interface OtlpReceiver {
  /** Base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Every span received so far, in arrival order. */
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { name: string; traceId: string; spanId: string; parentSpanId?: string }[] }[];
  }[];
}

/** A local collector speaking OTLP/HTTP with JSON bodies: POST /v1/traces, answered 200. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) spans.push({ service, name: s.name, traceId: s.traceId, spanId: s.spanId, ...(s.parentSpanId && { parentSpanId: s.parentSpanId }) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
