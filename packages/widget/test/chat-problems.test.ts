import { describe, expect, it } from 'vitest';
import { chatProblem } from '../src/chat-problems.ts';

// Every chat surface (the public page, the managed embed) tells a visitor what went wrong in
// these words, so each answer of the chat endpoint must have its own.
describe('chatProblem', () => {
  it('says why a blocked message was not sent, by reason, and asks to rephrase', () => {
    const problem = chatProblem(400, { error: 'blocked', reason: 'system_prompt_extraction' });
    expect(problem.text).toContain('hidden instructions');
    expect(problem.text).toContain('rephrase');
    expect(chatProblem(400, { error: 'blocked', reason: 'credential_probe' }).text).toContain('keys, passwords');
    expect(chatProblem(400, { error: 'blocked', reason: 'something_new' }).text).toContain('looks like an attack');
  });

  it('asks for the key again when it is missing or refused, and offers a retry when the provider fails', () => {
    expect(chatProblem(400, { error: 'missing_llm_key' })).toMatchObject({ askKey: true });
    expect(chatProblem(401, { error: 'invalid_llm_key' })).toMatchObject({ askKey: true });
    expect(chatProblem(429, { error: 'provider_rate_limit' })).toMatchObject({ retry: true });
    expect(chatProblem(502, { error: 'provider_unavailable' })).toMatchObject({ retry: true });
    expect(chatProblem(404, { error: 'bot_not_found' }).text).toBe('This bot is not available.');
  });

  it('names the window of a rate limit and when to ask again', () => {
    const resetAt = Date.UTC(2026, 0, 1, 12, 30, 0);
    expect(chatProblem(429, { error: 'rate_limit', scope: 'long', resetAt }).text).toContain('today’s');
    expect(chatProblem(429, { error: 'rate_limit', scope: 'short', resetAt }).text).toContain('this minute’s');
  });

  it('says when to ask again in seconds when it is that close, else as a time of day without seconds', () => {
    const soon = chatProblem(429, { error: 'rate_limit', scope: 'short', resetAt: Date.now() + 41_500 }).text;
    expect(soon).toMatch(/You can ask again in 4[12] seconds\.$/);
    const later = chatProblem(429, { error: 'rate_limit', scope: 'long', resetAt: Date.now() + 5 * 3600_000 }).text;
    expect(later).toMatch(/You can ask again at \d{1,2}[:.]\d{2}(\s?[AP]M)?\.$/);
    expect(later).not.toMatch(/\d{1,2}[:.]\d{2}[:.]\d{2}/);
  });

  it('falls back to the status and a retry for anything unknown', () => {
    expect(chatProblem(500, null)).toEqual({ text: 'Something went wrong (status 500). Please retry.', retry: true });
  });
});
