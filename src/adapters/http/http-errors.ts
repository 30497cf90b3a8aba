import type { Response } from 'express';
import type { z } from 'zod';
import type { BotOverviewError } from '../../application/bot-settings.ts';
import type { RegisterUserError } from '../../application/register-user.ts';
import type { SignInError } from '../../application/sign-in.ts';
import { validationDetails } from './schemas.ts';

// The only place where expected errors become HTTP statuses and bodies. Each surface
// keeps the body style its clients expect (human-readable for register and the owner
// API, snake_case codes for chat and v1); the switches are exhaustive, so a new error
// type does not compile until it is mapped here.

export interface HttpReply {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export const reply = (res: Response, { status, body, headers }: HttpReply) => {
  if (headers) res.set(headers);
  res.status(status).json(body);
};

const unreachable = (value: never): never => {
  throw new Error(`unmapped error: ${JSON.stringify(value)}`);
};

export const retryAfterSeconds = (resetAt: number, now: number) => String(Math.max(1, Math.ceil((resetAt - now) / 1000)));

export const registerErrorReply = (error: RegisterUserError): HttpReply => {
  switch (error.type) {
    case 'email_taken':
      return { status: 409, body: { error: 'A user with this email already exists' } };
    case 'username_taken':
      return { status: 409, body: { error: 'A user with this username already exists' } };
    case 'account_exists':
      return { status: 409, body: { error: 'Email or username already exists' } };
    default:
      return unreachable(error);
  }
};

export const signInErrorReply = (error: SignInError, failureUrl: string): HttpReply => {
  switch (error.type) {
    case 'invalid_credentials':
      return { status: 401, body: { error: 'CredentialsSignin', url: failureUrl } };
    case 'throttled':
      return {
        status: 429,
        body: { error: 'TooManyRequests' },
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      };
    default:
      return unreachable(error);
  }
};

export const ownerErrorReply = (error: BotOverviewError): HttpReply => {
  switch (error.type) {
    case 'bot_not_found':
      return { status: 404, body: { error: 'Bot not found' } };
    default:
      return unreachable(error.type);
  }
};

/** Register and the owner API say 'Validation failed'; chat and v1 say 'validation_failed'. */
export const validationReply = (error: z.ZodError, style: 'owner' | 'code' = 'owner'): HttpReply => ({
  status: 400,
  body: { error: style === 'owner' ? 'Validation failed' : 'validation_failed', details: validationDetails(error) },
});
