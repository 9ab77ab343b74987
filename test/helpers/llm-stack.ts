import { startFakeOpenAi, type FakeOpenAi } from './fake-openai';
import { startOwnStack, type OwnStackOptions } from './own-stack';
import type { Stack } from './stack';

export interface LlmStack {
  /** The local OpenAI-protocol server the stack's LLM calls go to; tests script its answers. */
  fake: FakeOpenAi;
  stack: Stack;
  stop(): Promise<void>;
}

/**
 * A stack of a test file's own (startOwnStack) with an LLM configured: a local server speaking
 * the OpenAI protocol, so features that need one run.
 */
export async function startLlmStack(name: string, o: OwnStackOptions): Promise<LlmStack> {
  const fake = await startFakeOpenAi();
  try {
    const stack = await startOwnStack(name, {
      allowPrivateHosts: o.allowPrivateHosts,
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
