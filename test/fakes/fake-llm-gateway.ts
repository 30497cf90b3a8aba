import type { LlmGateway, LlmRequest, LlmResponse, LlmStreamResponse } from '../../src/application/ports.ts';

/** Answers with whatever it is told to; keeps the requests it received. */
export class FakeLlmGateway implements LlmGateway {
  readonly requests: LlmRequest[] = [];
  /** The abort signal of each streamed request, in order. */
  readonly signals: AbortSignal[] = [];
  answer: LlmResponse = { ok: true, text: 'A helpful answer.' };

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    return this.answer;
  }

  /** The answer's text in words, one chunk each. */
  async stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    this.requests.push(request);
    this.signals.push(signal);
    if (!this.answer.ok) return this.answer;
    const [first = '', ...rest] = this.answer.text.split(/(?<= )/);
    return { ok: true, stream: { first, rest: (async function* () { yield* rest; })() } };
  }
}
