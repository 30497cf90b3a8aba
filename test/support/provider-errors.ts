/**
 * How a chat answers a provider's error status: [provider status, our status, our body]. The
 * platform's chat and the self-hosted runtime are tested on this one table, so they answer alike.
 */
export const PROVIDER_ERROR_ANSWERS: [number, number, { error: string }][] = [
  [401, 400, { error: 'invalid_llm_key' }],
  [403, 400, { error: 'invalid_llm_key' }],
  [429, 429, { error: 'provider_rate_limit' }],
  [500, 502, { error: 'provider_unavailable' }],
  [503, 502, { error: 'provider_unavailable' }],
  [404, 502, { error: 'provider_unavailable' }],
];
