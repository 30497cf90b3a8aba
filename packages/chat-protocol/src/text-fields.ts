import { z } from 'zod';

// The rules of the text fields of request bodies, the platform's and the self-hosted runtime's:
// what counts as empty, how long a text is, and the body a validation failure carries.

export const OBJECT_EXPECTED = { error: 'Request body must be a JSON object' };

const codePoints = (value: string) => {
  let count = 0;
  for (const _ of value) count++;
  return count;
};

/**
 * What a person does not see: white space and the default-ignorable code points (zero-width
 * spaces and joiners, word joiner, BOM, soft hyphen, Hangul fillers, bidi controls...), and
 * the Braille blank. `String.prototype.trim` keeps all but white space.
 */
const INVISIBLE = '[\\s\\p{Default_Ignorable_Code_Point}\\u2800]';
const INVISIBLE_ENDS = new RegExp(`^${INVISIBLE}+|${INVISIBLE}+$`, 'gu');
const ALL_INVISIBLE = new RegExp(`^${INVISIBLE}*$`, 'u');

/** Trims what a person does not see at both ends, as every trimmed field is trimmed. */
export const trimInvisible = (value: string) => value.replace(INVISIBLE_ENDS, '');

/** Whether a person would see at least one character. */
export const hasVisibleCharacter = (value: string) => !ALL_INVISIBLE.test(value);

/** A string, trimmed of white space and invisible characters at both ends. */
export const trimmedString = () => z.string({ error: 'Expected a string' }).overwrite(trimInvisible);

/**
 * A string trimmed of what a person does not see, whose length, in Unicode code points, is
 * within [min, max], without NUL (PostgreSQL's text cannot hold it). When it may not be
 * empty, at least one character must be visible.
 */
export const boundedText = (min: number, max: number) =>
  trimmedString()
    .refine((value) => !value.includes('\u0000'), { message: 'Must not contain NUL characters', abort: true })
    .refine((value) => min === 0 || hasVisibleCharacter(value), { message: 'Must not be empty', abort: true })
    .refine((value) => codePoints(value) >= min, {
      message: min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`,
      abort: true,
    })
    .refine((value) => codePoints(value) <= max, { message: `Must be at most ${max} characters` })
    .meta({
      minLength: min,
      maxLength: max,
      // No U+0000 anywhere; when it may not be empty, at least one character that is not white space.
      pattern: min > 0 ? '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$' : '^[^\\u0000]*$',
      description: `Trimmed of white space and invisible characters (zero-width spaces, word joiners, BOM...) at both ends, then ${min}-${max} Unicode code points${min > 0 ? ', at least one of them visible' : ''}; must not contain U+0000 (NUL)`,
    });

export const emailAddress = trimmedString()
  .toLowerCase()
  .max(254, { message: 'Must be at most 254 characters' })
  .pipe(z.email({ message: 'Must be a valid e-mail address' }))
  .meta({ format: 'email', maxLength: 254, description: 'An e-mail address, trimmed and lower-cased; at most 254 characters' });

/** `{ fieldErrors, formErrors }`, the shape every validation error body carries. */
export const validationDetails = (error: z.ZodError) => {
  const { fieldErrors, formErrors } = z.flattenError(error);
  return { fieldErrors, formErrors };
};

const UUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A UUID, trimmed and lower-cased. */
export const uuidText = () =>
  trimmedString()
    .regex(UUID_TEXT, { message: 'Must be a UUID' })
    .transform((value) => value.toLowerCase())
    .meta({ format: 'uuid' });

/** One message of a chat's history: the visitor's (`user`) or the bot's (`assistant`). */
export const transcriptMessage = z.object(
  { role: z.enum(['user', 'assistant'], { error: "Must be 'user' or 'assistant'" }), content: boundedText(1, 8_000) },
  { error: 'Expected an object { role, content }' },
);
