import type { LlmGateway, LlmRequest, LlmResponse } from '../../src/application/ports.ts';

/** Answers with whatever it is told to; keeps the requests it received. */
export class FakeLlmGateway implements LlmGateway {
  readonly requests: LlmRequest[] = [];
  answer: LlmResponse = { ok: true, text: 'A helpful answer.' };

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    return this.answer;
  }
}
