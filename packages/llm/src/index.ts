export type {
  EmbeddingErrorType,
  EmbeddingGateway,
  EmbeddingResponse,
  Fetch,
  GatewayTransport,
  LlmErrorType,
  LlmGateway,
  LlmRequest,
  LlmResponse,
  LlmStreamResponse,
  LlmTextStream,
} from './ports.ts';
export { AnthropicLlmGateway, type AnthropicLlmGatewayOptions } from './anthropic-llm-gateway.ts';
export { AzureOpenAiLlmGateway, isAllowedAzureEndpoint, type AzureOpenAiLlmGatewayOptions } from './azure-openai-llm-gateway.ts';
export { GoogleLlmGateway, type GoogleLlmGatewayOptions } from './google-llm-gateway.ts';
export { OpenAiLlmGateway, type OpenAiLlmGatewayOptions } from './openai-llm-gateway.ts';
export { OpenAiEmbeddingGateway, type OpenAiEmbeddingGatewayOptions } from './openai-embedding-gateway.ts';
export { isConnectionError, KEY_SENT_PER_REQUEST, parseRetryAfter, retryAfterSecondsFromHeaders } from './call-policy.ts';
export { DEFAULT_MODELS } from './models.ts';
