import { AzureOpenAI } from 'openai';
import type { Fetch, LlmGateway, LlmRequest, LlmResponse, LlmStreamResponse, GatewayTransport } from './ports.ts';
import { completeWithPolicy } from './call-policy.ts';
import { chatCompletionBody, chatCompletionText, classifyOpenAiError, streamChatCompletion } from './openai-llm-gateway.ts';

const AZURE_DEFAULT_API_VERSION = '2024-10-21';

export interface AzureOpenAiLlmGatewayOptions extends GatewayTransport {
  timeoutMs: number;
  /** Host suffixes (`.openai.azure.com`) or hosts; see isAllowedAzureEndpoint. */
  allowedHosts: string[];
}

const LOOPBACK_ENTRIES = new Set(['127.0.0.1', 'localhost']);
const DEPLOYMENT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Whether a caller-supplied Azure endpoint may be called. It must be an https URL without
 * credentials whose host matches an entry: `.suffix` entries match any host ending in them,
 * other entries match that host or its subdomains. An entry that is exactly `127.0.0.1` or
 * `localhost` also admits plain http to that host, on any port.
 */
export function isAllowedAzureEndpoint(url: string, allowedHosts: string[]): boolean {
  const endpoint = parseUrl(url.trim());
  if (!endpoint || endpoint.username !== '' || endpoint.password !== '') return false;
  const host = endpoint.hostname.toLowerCase();
  const entries = allowedHosts.map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== '');
  if (endpoint.protocol === 'https:') return entries.some((entry) => hostMatches(host, entry));
  if (endpoint.protocol === 'http:') return entries.some((entry) => LOOPBACK_ENTRIES.has(entry) && host === entry);
  return false;
}

function hostMatches(host: string, entry: string): boolean {
  if (entry.startsWith('.')) return host.length > entry.length && host.endsWith(entry);
  return host === entry || host.endsWith(`.${entry}`);
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * Azure OpenAI with the caller's endpoint, key and api-version; the deployment is
 * `request.model`. Only the endpoint's origin is used: the client adds
 * `/openai/deployments/<deployment>/chat/completions?api-version=<version>`.
 */
export class AzureOpenAiLlmGateway implements LlmGateway {
  private readonly timeoutMs: number;
  private readonly allowedHosts: string[];
  private readonly fetch: Fetch | undefined;
  private readonly streamFetch: Fetch | undefined;

  constructor(options: AzureOpenAiLlmGatewayOptions) {
    this.timeoutMs = options.timeoutMs;
    this.allowedHosts = options.allowedHosts;
    this.fetch = options.fetch;
    this.streamFetch = options.streamFetch;
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    const refused = this.refusal(request);
    if (refused) return Promise.resolve(refused);
    return completeWithPolicy(
      this.timeoutMs,
      async (signal) => {
        const answer = await this.client(request, this.fetch).chat.completions.create(chatCompletionBody(request), { signal });
        return chatCompletionText('azure', answer);
      },
      classifyOpenAiError,
    );
  }

  /** Streamed through `streamFetch` (the SDK's own fetch when absent): `fetch` may buffer whole answers. */
  stream(request: LlmRequest, signal: AbortSignal): Promise<LlmStreamResponse> {
    const refused = this.refusal(request);
    if (refused) return Promise.resolve(refused);
    return streamChatCompletion(this.timeoutMs, this.client(request, this.streamFetch), request, signal);
  }

  /** An endpoint off the allowed hosts is no usable key; a deployment name that cannot be one is no usable answer. */
  private refusal(request: LlmRequest): Extract<LlmResponse, { ok: false }> | null {
    if (!isAllowedAzureEndpoint(request.azureEndpoint?.trim() ?? '', this.allowedHosts)) return { ok: false, error: 'missing_llm_key' };
    if (!DEPLOYMENT_NAME.test(request.model)) return { ok: false, error: 'provider_unavailable' };
    return null;
  }

  private client(request: LlmRequest, fetch?: Fetch): AzureOpenAI {
    return new AzureOpenAI({
      ...(fetch ? { fetch } : {}),
      endpoint: new URL(request.azureEndpoint!.trim()).origin,
      baseURL: null,
      apiKey: request.apiKey,
      apiVersion: request.azureApiVersion?.trim() || AZURE_DEFAULT_API_VERSION,
      deployment: request.model,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
  }
}
