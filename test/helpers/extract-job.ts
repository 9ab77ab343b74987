import { api, type ApiResponse } from './api';

export interface ExtractStatus {
  success: boolean;
  status: 'processing' | 'completed' | 'failed' | 'cancelled';
  data: Record<string, any> | null;
  notes: { path: string; confidence: number; source: string; evidence: string | null; url?: string; message?: string; schema?: Record<string, unknown> }[];
  sources?: string[];
  error?: string;
  creditsUsed: number;
  tokensUsed: number;
  expiresAt: string;
}

/** Polls GET /v1/extract/:id until the job leaves `processing`. */
export async function waitForExtract(id: string, options: { key?: string; baseUrl?: string } = {}): Promise<ExtractStatus> {
  for (;;) {
    const { status, body } = await api<ExtractStatus>(`/v1/extract/${id}`, options);
    if (status !== 200) throw new Error(`GET /v1/extract/${id} answered ${status}: ${JSON.stringify(body)}`);
    if (body.status !== 'processing') return body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Starts an extract job and waits for its end; the start response comes back too. */
export async function runExtract(body: Record<string, unknown>, options: { key?: string; baseUrl?: string } = {}): Promise<{ start: ApiResponse; result: ExtractStatus }> {
  const start = await api('/v1/extract', { body, ...options });
  if (start.status !== 200) throw new Error(`POST /v1/extract answered ${start.status}: ${JSON.stringify(start.body)}`);
  return { start, result: await waitForExtract(start.body.id, options) };
}

/** The note of one field. */
export function noteFor(result: ExtractStatus, path: string) {
  const note = result.notes.find((n) => n.path === path);
  if (!note) throw new Error(`no note for ${path}: ${JSON.stringify(result.notes.map((n) => n.path))}`);
  return note;
}
