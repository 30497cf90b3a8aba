import { describe, expect, it } from 'vitest';
import { botSettingsBody } from '../../src/adapters/http/schemas.ts';
import { MAX_RATE_LIMITS, rateLimitProblems } from '../../src/domain/bot-rules.ts';

/** The messages the API's schema gives for one limit, in its order. */
const schemaProblems = (field: 'perMinute' | 'perDay', value: number): string[] => {
  const parsed = botSettingsBody.safeParse({ rateLimits: { [field]: value } });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

// The settings page places each limit's errors under its own field with rateLimitProblems, since the
// API lists both limits' errors together; the two must say the same thing for every value.
describe('rateLimitProblems, the settings page’s twin of the API’s rate-limit schema', () => {
  const values = (max: number) => [1, 2, max - 1, max, max + 1, 0, -1, -3.5, 0.5, 1.5, max + 0.5, 10 * max];

  it.each(['perMinute', 'perDay'] as const)('gives the schema’s words, in its order, for %s', (field) => {
    const max = MAX_RATE_LIMITS[field];
    for (const value of values(max)) {
      expect({ value, problems: rateLimitProblems(value, max) }).toEqual({ value, problems: schemaProblems(field, value) });
    }
  });

  it('finds nothing wrong with a whole number within the limits, and one fault in any other', () => {
    expect(rateLimitProblems(10, 1000)).toEqual([]);
    expect(rateLimitProblems(0.5, 1000)).toEqual(['Expected a whole number']);
    expect(rateLimitProblems(0, 1000)).toEqual(['Must be at least 1']);
    expect(rateLimitProblems(1001, 1000)).toEqual(['Must be at most 1000']);
  });
});
