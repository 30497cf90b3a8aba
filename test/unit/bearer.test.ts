import { describe, expect, it } from 'vitest';
import { bearerCredentials } from '../../src/adapters/bearer.ts';

const TOKEN = `cbt_${'0123456789abcdef'.repeat(4)}`;

describe('bearerCredentials (the HTTP adapter reads Authorization)', () => {
  it.each([[`Bearer ${TOKEN}`], [`bearer ${TOKEN}`], [`BEARER ${TOKEN}`], [`BeArEr ${TOKEN}`], [`  Bearer   ${TOKEN}  `], [`Bearer\t${TOKEN}`]])(
    'takes the credentials from %j (the scheme is case-insensitive)',
    (header) => {
      expect(bearerCredentials(header)).toBe(TOKEN);
    },
  );

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the token alone', TOKEN],
    ['another scheme', `Basic ${TOKEN}`],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
  ])('finds none in %s', (_label, header) => {
    expect(bearerCredentials(header)).toBeNull();
  });
});
