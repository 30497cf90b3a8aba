import { describe, expect, it } from 'vitest';
import { Cors } from '../src/cors.ts';
import { VisitorLimits } from '../src/visitor-limits.ts';

describe('Cors', () => {
  const cors = new Cors(['https://ada.example']);

  it('allows the owner’s sites, refuses others, and lets requests without Origin through', () => {
    expect(cors.judge('https://ada.example')).toBe('allowed');
    expect(cors.judge('https://evil.example')).toBe('refused');
    expect(cors.judge('null')).toBe('refused');
    expect(cors.judge(null)).toBe('none');
  });

  it('names only an allowed origin, never a wildcard nor credentials', () => {
    expect(cors.headers('https://ada.example', true)).toMatchObject({
      'access-control-allow-origin': 'https://ada.example',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      vary: 'Origin',
    });
    const refused = cors.headers('https://evil.example', true);
    expect(refused['access-control-allow-origin']).toBeUndefined();
    expect(JSON.stringify(cors.headers('https://ada.example', false))).not.toMatch(/credentials|\*/);
  });
});

describe('VisitorLimits', () => {
  it('limits each address per minute, apart from the others, and a refusal counts nothing', () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 10);
    const limits = new VisitorLimits(2, 100, () => now);
    expect(limits.admit('a')).toEqual({ allowed: true });
    expect(limits.admit('a')).toEqual({ allowed: true });
    expect(limits.admit('a')).toEqual({ allowed: false, scope: 'short', resetAt: Date.UTC(2026, 0, 1, 12, 1) });
    expect(limits.admit('b')).toEqual({ allowed: true });
    now = Date.UTC(2026, 0, 1, 12, 1);
    expect(limits.admit('a')).toEqual({ allowed: true });
  });

  it('stops the whole runtime for the day at MESSAGES_PER_DAY', () => {
    let now = Date.UTC(2026, 0, 1, 23, 0);
    const limits = new VisitorLimits(10, 3, () => now);
    for (const address of ['a', 'b', 'c']) expect(limits.admit(address).allowed).toBe(true);
    expect(limits.admit('d')).toEqual({ allowed: false, scope: 'long', resetAt: Date.UTC(2026, 0, 2) });
    now = Date.UTC(2026, 0, 2, 0, 0, 1);
    expect(limits.admit('d').allowed).toBe(true);
  });
});
