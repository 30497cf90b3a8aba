import { z } from 'zod';
import { RETENTION_DAYS } from '../../application/conversation-retention.ts';
import { emailAddress, OBJECT_EXPECTED, registerBody } from './schemas.ts';

// The request bodies of the account routes (issue 24). The OpenAPI document is generated from these.

const newPassword = registerBody.shape.password;
const anyPassword = z.string({ error: 'Expected a string' }).min(1, { message: 'Required' }).max(1024, { message: 'Must be at most 1024 characters' });
const linkToken = z.string({ error: 'Expected a string' }).max(256, { message: 'Must be at most 256 characters' }).meta({ description: 'The `token` of the link' });

export const forgotPasswordBody = z.object(
  {
    identifier: z
      .string({ error: 'Expected a string' })
      .trim()
      .min(1, { message: 'Required' })
      .max(254, { message: 'Must be at most 254 characters' })
      .meta({ description: 'The account’s e-mail address or username' }),
  },
  OBJECT_EXPECTED,
);

export const resetPasswordBody = z.object({ token: linkToken, password: newPassword }, OBJECT_EXPECTED);

export const confirmEmailBody = z.object({ token: linkToken }, OBJECT_EXPECTED);

export const changePasswordBody = z.object({ currentPassword: anyPassword, newPassword }, OBJECT_EXPECTED);

export const changeEmailBody = z.object({ password: anyPassword, newEmail: emailAddress }, OBJECT_EXPECTED);

export const deleteAccountBody = z.object(
  { password: anyPassword, username: z.string({ error: 'Expected a string' }).max(64).meta({ description: 'The account’s username, typed out' }) },
  OBJECT_EXPECTED,
);

export const retentionBody = z.object(
  {
    days: z
      .int({ error: `A whole number of days from ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}, or null` })
      .min(RETENTION_DAYS.min, { message: `Must be at least ${RETENTION_DAYS.min}` })
      .max(RETENTION_DAYS.max, { message: `Must be at most ${RETENTION_DAYS.max}` })
      .nullable()
      .meta({ description: `Delete conversations whose last message is older than this many days (${RETENTION_DAYS.min}-${RETENTION_DAYS.max}); null: never` }),
  },
  OBJECT_EXPECTED,
);
