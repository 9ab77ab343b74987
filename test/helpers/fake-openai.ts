import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, any>; strict?: boolean } };
  temperature?: number;
}

/** A scripted answer: JSON content with token usage (after `delayMs`, a model thinking), or an HTTP error. */
export type ChatReply = { content: string; tokens?: number; delayMs?: number } | { status: number; message: string };

export interface FakeOpenAi {
  /** Base URL as LLM_BASE_URL takes it (ends in /v1). */
  url: string;
  apiKey: string;
  /** Chat requests received since the last script() call. */
  requests: ChatRequest[];
  /** Sets how the next requests are answered (n counts from 0) and forgets earlier requests. */
  script(answer: (request: ChatRequest, n: number) => ChatReply): void;
  close(): Promise<void>;
}

/** The JSON a model following the extraction prompt answers with. */
export function answer(data: unknown, evidence: Record<string, string> = {}, tokens = 1_000): ChatReply {
  return { content: JSON.stringify({ data, evidence: Object.entries(evidence).map(([path, quote]) => ({ path, quote })) }), tokens };
}

/** The page text of an extraction request (between the triple quotes of the user message). */
export function pageTextOf(request: ChatRequest): string {
  const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
  return /"""\n([\s\S]*)\n"""/.exec(user)?.[1] ?? '';
}

/**
 * A local server speaking the OpenAI Chat Completions protocol (POST /v1/chat/completions):
 * it checks the key, records each request and answers as the test scripts it.
 */
export async function startFakeOpenAi(apiKey = 'test-key'): Promise<FakeOpenAi> {
  let respond: (request: ChatRequest, n: number) => ChatReply = () => ({ status: 500, message: 'no answer scripted' });
  const fake: FakeOpenAi = {
    url: '',
    apiKey,
    requests: [],
    script(answerWith) {
      respond = answerWith;
      fake.requests = [];
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      const n = fake.requests.length;
      fake.requests.push(request);
      const reply = respond(request, n);
      if ('status' in reply) return send(reply.status, { error: { message: reply.message, type: 'server_error' } });
      const completion = Math.max(1, Math.round((reply.tokens ?? 1_000) / 4));
      const answer = () => send(200, {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 1_780_000_000,
        model: request.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: (reply.tokens ?? 1_000) - completion, completion_tokens: completion, total_tokens: reply.tokens ?? 1_000 },
      });
      if (reply.delayMs) setTimeout(() => !res.destroyed && answer(), reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
