import type { Response } from 'express';
import type { z } from 'zod';
import type { BotTokenAuthError } from '../../application/authenticate-bot-token.ts';
import type { BotTokenError } from '../../application/bot-tokens.ts';
import type { BotOverviewError } from '../../application/bot-settings.ts';
import type { CaptureLeadError } from '../../application/capture-lead.ts';
import type { KeepReportedRefusalError } from '../../application/keep-reported-refusal.ts';
import type { KnowledgeError } from '../../application/retrieve-knowledge.ts';
import type { SaveConversationError } from '../../application/save-conversation.ts';
import type { OwnerError } from '../../application/owner-lists.ts';
import type { OwnerKeyError } from '../../application/owner-llm-key.ts';
import type { RegisterUserError } from '../../application/register-user.ts';
import type { SignInError } from '../../application/sign-in.ts';
import type { ConfirmEmailChangeError, RequestEmailChangeError, WrongPassword } from '../../application/account-changes.ts';
import type { RequestPasswordResetError, ResetPasswordError } from '../../application/account-recovery.ts';
import type { DeleteAccountError } from '../../application/delete-account.ts';
import type { ImportCvError } from '../../application/import-cv.ts';
import type { SetBotPhotoError } from '../../application/bot-photo.ts';
import { limitReply, providerRateLimitReply } from '@careerbot/chat-protocol';
import { BODY_ERRORS, type ErrorBody } from './operation-doc.ts';
import { validationDetails } from './schemas.ts';

// The only place where expected errors become HTTP statuses and bodies. Each surface
// keeps the body style its clients expect (human-readable for register and the owner
// API, snake_case codes for chat and v1); the switches are exhaustive, so a new error
// type does not compile until it is mapped here.

export interface HttpReply {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

// ---------------------------------------------------------------- protocol refusals
// What is refused before any use case runs: media type, size, JSON, session, origin,
// CSRF, unknown paths, the database being down. Each surface keeps its own body style.

/** Error bodies by surface: register and the owner API use sentences, chat and v1 codes. */
export type ErrorStyle = keyof typeof BODY_ERRORS;

/** Chat's errors, said alike by the self-hosted runtime. */
export { chatErrorReply } from '@careerbot/chat-protocol';

export const PROTOCOL = {
  unsupportedMediaType: { status: 415, body: { error: 'unsupported_media_type' } },
  missingLlmKey: { status: 400, body: { error: 'missing_llm_key' } },
  unauthorized: { status: 401, body: { error: 'Unauthorized' } },
  /** A state-changing request whose Origin is not ours. */
  forbiddenOrigin: { status: 403, body: { error: 'Forbidden' } },
  missingCsrf: { status: 403, body: { error: 'MissingCSRF' } },
  notFound: { status: 404, body: { error: 'not_found' } },
  badRequest: { status: 400, body: { error: 'bad_request' } },
  internalError: { status: 500, body: { error: 'internal_error' } },
  serviceUnavailable: { status: 503, body: { error: 'service_unavailable' }, headers: { 'Retry-After': '5' } },
} satisfies Record<string, HttpReply>;

export const invalidJsonReply = (style: ErrorStyle): HttpReply => ({ status: 400, body: { error: BODY_ERRORS[style].invalidJson } });

/** 413, and the connection closes once it is written: a client still streaming gets the status, and we stop receiving. */
export const tooLargeReply = (style: ErrorStyle): HttpReply => ({ status: 413, body: { error: BODY_ERRORS[style].tooLarge }, headers: { Connection: 'close' } });

/** A path parameter that does not even decode (`%ZZ`) names nothing: each surface's own 404. */
export const undecodablePathReply = (path: string): HttpReply => {
  if (path.startsWith('/api/chat/')) return { status: 404, body: { error: 'bot_not_found' } };
  if (/^\/api\/(bots|notifications|account)\//.test(path)) return { status: 404, body: { error: 'Not found' } };
  return PROTOCOL.notFound;
};

export const reply = (res: Response, { status, body, headers }: HttpReply) => {
  if (headers) res.set(headers);
  // The metrics count refusals and blocked messages from it (adapters/metrics).
  res.locals.replyBody = body;
  res.status(status).json(body);
};

const unreachable = (value: never): never => {
  throw new Error(`unmapped error: ${JSON.stringify(value)}`);
};

export const registerErrorReply = (error: RegisterUserError): HttpReply => {
  switch (error.type) {
    case 'email_taken':
      return { status: 409, body: { error: 'A user with this email already exists' } };
    case 'username_taken':
      return { status: 409, body: { error: 'A user with this username already exists' } };
    case 'account_exists':
      return { status: 409, body: { error: 'Email or username already exists' } };
    case 'throttled':
      return { status: 429, body: { error: 'TooManyRequests' }, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
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

export const ownerErrorReply = (error: BotOverviewError | OwnerError): HttpReply => {
  switch (error.type) {
    case 'bot_not_found':
      return { status: 404, body: { error: 'Bot not found' } };
    case 'not_found':
      return { status: 404, body: { error: 'Not found' } };
    default:
      return unreachable(error);
  }
};

export type AccountError =
  | RequestPasswordResetError
  | ResetPasswordError
  | WrongPassword
  | RequestEmailChangeError
  | ConfirmEmailChangeError
  | DeleteAccountError
  | { type: 'not_found' };

/** The account's own pages: forgotten passwords, changes, sessions, deletion. */
export const ACCOUNT_ERROR_BODIES = {
  invalidLink: 'This link is invalid, used or expired',
  wrongPassword: 'The current password is wrong',
  sameEmail: 'This is already your e-mail address',
  usernameMismatch: 'Type your username to confirm',
} as const;

export const accountErrorReply = (error: AccountError): HttpReply => {
  switch (error.type) {
    case 'throttled':
      return { status: 429, body: { error: 'TooManyRequests' }, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
    case 'invalid_link':
      return { status: 400, body: { error: ACCOUNT_ERROR_BODIES.invalidLink } };
    case 'wrong_password':
      return { status: 400, body: { error: ACCOUNT_ERROR_BODIES.wrongPassword } };
    case 'same_email':
      return { status: 400, body: { error: ACCOUNT_ERROR_BODIES.sameEmail } };
    case 'username_mismatch':
      return { status: 400, body: { error: ACCOUNT_ERROR_BODIES.usernameMismatch } };
    case 'email_taken':
      return registerErrorReply(error);
    case 'not_found':
      return { status: 404, body: { error: 'Not found' } };
    default:
      return unreachable(error);
  }
};

/** Register and the owner API say 'Validation failed'; chat and v1 say 'validation_failed'. */
export const validationReply = (error: z.ZodError, style: ErrorStyle = 'owner'): HttpReply => ({
  status: 400,
  body: { error: BODY_ERRORS[style].validation, details: validationDetails(error) },
});

/** The owner's provider key routes; a refused key is said in words, never echoed. */
export const ownerKeyErrorReply = (error: OwnerKeyError): HttpReply => {
  switch (error.type) {
    case 'no_provider':
      return { status: 400, body: { error: 'Save your bot first: the key is for its provider' } };
    case 'missing_azure_endpoint':
      return { status: 400, body: { error: 'A valid Azure OpenAI endpoint is required (https, on an allowed host)' } };
    case 'key_refused':
      return { status: 400, body: { error: 'The provider refused this key' } };
    case 'no_owner_key':
      return { status: 404, body: { error: 'Not found' } };
    default:
      return unreachable(error);
  }
};

// ---------------------------------------------------------------- bot runtime API (v1) and bot tokens

export const botTokenAuthErrorReply = (error: BotTokenAuthError): HttpReply => {
  switch (error.type) {
    case 'missing_bot_token':
    case 'invalid_bot_token':
      return { status: 401, body: { error: error.type }, headers: { 'WWW-Authenticate': 'Bearer' } };
    default:
      return unreachable(error);
  }
};

/** The owner's token routes. */
export const botTokenErrorReply = (error: BotTokenError): HttpReply => {
  switch (error.type) {
    case 'bot_not_found':
      return { status: 404, body: { error: 'Bot not found' } };
    case 'token_not_found':
      return { status: 404, body: { error: 'Not found' } };
    default:
      return unreachable(error);
  }
};

export type RuntimeError = KnowledgeError | SaveConversationError | CaptureLeadError | KeepReportedRefusalError;

export const runtimeErrorReply = (error: RuntimeError, now: number): HttpReply => {
  switch (error.type) {
    case 'unknown_conversation':
      return {
        status: 400,
        body: {
          error: 'validation_failed',
          details: { fieldErrors: { conversationId: ['Must be a conversation of this bot'] }, formErrors: [] },
        },
      };
    case 'bot_not_found':
      return { status: 404, body: { error: 'bot_not_found' } };
    case 'rate_limited':
      return limitReply('rate_limited', error, now);
    case 'conversation_full':
      return { status: 422, body: { error: 'conversation_full' } };
    case 'invalid_embedding_key':
      return { status: 400, body: { error: 'invalid_embedding_key' } };
    case 'provider_rate_limit':
      return providerRateLimitReply(error.retryAfterSeconds);
    case 'provider_unavailable':
      return { status: 502, body: { error: 'provider_unavailable' } };
    default:
      return unreachable(error);
  }
};

/** The public avatar: an unknown bot looks like any unknown path. */
export const avatarErrorReply = (error: { type: 'not_found' }): HttpReply => {
  switch (error.type) {
    case 'not_found':
      return { status: 404, body: { error: 'not_found' } };
    default:
      return unreachable(error.type);
  }
};

export const publicBotErrorReply = (error: { type: 'bot_not_found' }): HttpReply => {
  switch (error.type) {
    case 'bot_not_found':
      return { status: 404, body: { error: 'bot_not_found' } };
    default:
      return unreachable(error.type);
  }
};

// ---------------------------------------------------------------- CV import

/** Why an uploaded CV was not read, in the words the editor shows. */
export const CV_IMPORT_ERRORS = {
  tooLarge: 'The file is larger than 5 MB',
  emptyFile: 'The file is empty',
  unsupportedType: 'This file is not a PDF, a Word document (.docx), Markdown, plain text or a LinkedIn data export',
  tooManyPages: 'This PDF has more than 30 pages: shorten it, or paste the text',
  encryptedPdf: 'This PDF is protected by a password: save a copy without one and import that',
  pdfWithScripts: 'This PDF contains scripts, so it was not opened: print it to a new PDF and import that',
  noTextLayer: 'This PDF has no text to read (a scanned page?): export your CV as a PDF from your word processor, or paste the text',
  noText: 'This file contains no text',
  archiveTooLarge: 'This archive expands to more than 40 MB, so it was not opened',
  unreadableFile: 'This file could not be read: it may be damaged',
  tookTooLong: 'Reading this file took too long, so it was stopped: try a smaller file, or paste the text',
} as const;

export const cvTooLargeReply: HttpReply = { status: 413, body: { error: CV_IMPORT_ERRORS.tooLarge }, headers: { Connection: 'close' } };

export const importCvErrorReply = (error: ImportCvError): HttpReply => {
  switch (error.type) {
    case 'empty_file':
      return { status: 400, body: { error: CV_IMPORT_ERRORS.emptyFile } };
    case 'unsupported_type':
      return { status: 415, body: { error: CV_IMPORT_ERRORS.unsupportedType } };
    case 'too_many_pages':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.tooManyPages, pages: error.pages } };
    case 'encrypted_pdf':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.encryptedPdf } };
    case 'pdf_with_scripts':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.pdfWithScripts } };
    case 'no_text_layer':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.noTextLayer } };
    case 'no_text':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.noText } };
    case 'archive_too_large':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.archiveTooLarge } };
    case 'unreadable_file':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.unreadableFile } };
    case 'took_too_long':
      return { status: 422, body: { error: CV_IMPORT_ERRORS.tookTooLong } };
    default:
      return unreachable(error);
  }
};

// ---------------------------------------------------------------- the owner's photo

export const PHOTO_ERRORS = {
  tooLarge: 'The photo is larger than 5 MB',
  notAnImage: 'This file is not an image that can be read: choose a PNG, JPEG or WebP photo',
  unsupportedType: 'The photo must be a PNG, JPEG or WebP image',
  tooManyPixels: 'This image has too many pixels (over 50 million): choose a smaller photo',
} as const;

export const photoTooLargeReply: HttpReply = { status: 413, body: { error: PHOTO_ERRORS.tooLarge }, headers: { Connection: 'close' } };

export const photoErrorReply = (error: SetBotPhotoError): HttpReply => {
  switch (error.type) {
    case 'bot_not_found':
      return { status: 404, body: { error: 'Bot not found' } };
    case 'not_an_image':
      return { status: 422, body: { error: PHOTO_ERRORS.notAnImage } };
    case 'unsupported_image_type':
      return { status: 415, body: { error: PHOTO_ERRORS.unsupportedType } };
    case 'too_many_pixels':
      return { status: 422, body: { error: PHOTO_ERRORS.tooManyPixels } };
    default:
      return unreachable(error);
  }
};
