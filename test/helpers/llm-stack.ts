import path from 'node:path';
import { inject } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai';
import { startStack, type Stack } from './stack';

export interface LlmStack {
  /** The local OpenAI-protocol server the stack's LLM calls go to; tests script its answers. */
  fake: FakeOpenAi;
  stack: Stack;
  stop(): Promise<void>;
}

/**
 * An API and a worker of their own (task queues `wcs-<name>`, logs in `<name>-stack`) with an
 * LLM configured: a local server speaking the OpenAI protocol, so features that need one run.
 */
export async function startLlmStack(name: string, o: { allowPrivateHosts: string[]; env?: Record<string, string> }): Promise<LlmStack> {
  const fake = await startFakeOpenAi();
  try {
    const stack = await startStack({
      databaseUrl: inject('databaseUrl'),
      temporalAddress: inject('temporalAddress'),
      chromiumPath: inject('chromiumPath'),
      allowPrivateHosts: o.allowPrivateHosts,
      queuePrefix: `wcs-${name}`,
      logDir: path.join(inject('logDir'), `${name}-stack`),
      env: { LLM_BASE_URL: fake.url, LLM_API_KEY: fake.apiKey, LLM_MODEL: 'fake-model', ...o.env },
    });
    return {
      fake,
      stack,
      stop: async () => {
        await stack.stop();
        await fake.close();
      },
    };
  } catch (err) {
    await fake.close();
    throw err;
  }
}
