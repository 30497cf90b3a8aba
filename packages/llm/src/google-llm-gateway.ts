import {
  GoogleGenerativeAI,
  GoogleGenerativeAIAbortError,
  GoogleGenerativeAIFetchError,
  type EnhancedGenerateContentResponse,
  type ErrorDetails,
} from '@google/generative-ai';
import { z } from 'zod';
import type { LlmGateway, LlmRequest, LlmResponse, LlmStreamResponse } from './ports.ts';
import {
  completeWithPolicy,
  failureForStatus,
  failureForUnknownError,
  MalformedAnswerError,
  parseRetryAfter,
  requireText,
  streamWithPolicy,
  textsOf,
  type ProviderFailure,
} from './call-policy.ts';

const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export interface GoogleLlmGatewayOptions {
  baseURL?: string;
  timeoutMs: number;
}

const generateContentAnswer = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(z.object({ text: z.string().optional() })) }),
      }),
    )
    .min(1),
});

/**
 * The Google SDK never retries. Its `timeout` option starts a timer it never clears, so the
 * deadline is given as `signal` only.
 */
export class GoogleLlmGateway implements LlmGateway {
  private readonly baseURL: string;
  private readonly timeoutMs: number;

  constructor(options: GoogleLlmGatewayOptions) {
    this.baseURL = options.baseURL || GOOGLE_DEFAULT_BASE_URL;
    this.timeoutMs = options.timeoutMs;
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    return completeWithPolicy(
      this.timeoutMs,
      async (signal) => {
        const { response } = await this.model(request).generateContent(contents(request), { signal });
        return generatedText(response);
      },
      classifyGoogleError,
    );
  }

  stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    return streamWithPolicy(
      this.timeoutMs,
      async (callSignal) => {
        const result = await this.model(request).generateContentStream(contents(request), { signal: callSignal });
        // The SDK also gathers the whole answer; when the stream is aborted that promise fails, unread.
        result.response.catch(() => undefined);
        return textsOf(result.stream, chunkText);
      },
      classifyGoogleError,
      signal,
    );
  }

  private model(request: LlmRequest) {
    return new GoogleGenerativeAI(request.apiKey).getGenerativeModel(
      {
        model: request.model,
        systemInstruction: request.system,
        generationConfig: { maxOutputTokens: request.maxTokens, temperature: request.temperature },
      },
      { baseUrl: this.baseURL },
    );
  }
}

const contents = (request: LlmRequest) => ({ contents: [{ role: 'user', parts: [{ text: request.message }] }] });

/** A chunk's text; a chunk without text (a safety rating alone) gives none. */
function chunkText(chunk: EnhancedGenerateContentResponse): string {
  try {
    return chunk.text();
  } catch {
    return '';
  }
}

function generatedText(response: EnhancedGenerateContentResponse): string {
  if (!generateContentAnswer.safeParse(response).success) throw new MalformedAnswerError('google');
  return requireText('google', response.text());
}

/**
 * The SDK drops the cause of a failed fetch: a connection error arrives as a plain
 * GoogleGenerativeAIError whose message ends in "fetch failed", which the generic check reads.
 */
function classifyGoogleError(error: unknown): ProviderFailure {
  if (error instanceof GoogleGenerativeAIAbortError) return { kind: 'unavailable', retryable: false };
  if (error instanceof GoogleGenerativeAIFetchError && typeof error.status === 'number') {
    return failureForStatus(error.status, retryDelaySeconds(error.errorDetails));
  }
  if (error instanceof GoogleGenerativeAIFetchError) return { kind: 'unavailable', retryable: false };
  return failureForUnknownError(error);
}

/** Google reports a 429's wait in a `google.rpc.RetryInfo` detail (`retryDelay: "7s"`), not a header. */
function retryDelaySeconds(details: ErrorDetails[] | undefined): number | undefined {
  const retryInfo = details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'));
  const delay = retryInfo?.['retryDelay'];
  if (typeof delay !== 'string') return undefined;
  return parseRetryAfter(delay.replace(/s$/, ''));
}
