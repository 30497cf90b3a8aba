import { createHash, randomBytes } from 'node:crypto';

/** Reset and e-mail confirmation links live this long, and are spent on first use. */
export const ACCOUNT_LINK_LIFETIME_MS = 30 * 60 * 1000;

/** 32 random bytes, URL-safe: what a link carries. Only its hash is stored. */
export const newAccountLinkToken = (): string => randomBytes(32).toString('base64url');

export const isAccountLinkToken = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

export const hashAccountLinkToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
