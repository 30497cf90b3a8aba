/**
 * `{ kind: 'lone_surrogate', path }`: JSON's `\ud800` escapes can spell a string that is not
 * Unicode text (a lone surrogate), which PostgreSQL's jsonb refuses and its text columns would
 * store as U+FFFD. One rule for every field: such a body is refused (400 validation failed),
 * naming the first field that holds one.
 */
export type ParsedJson = { kind: 'ok'; value: unknown } | { kind: 'invalid' } | { kind: 'lone_surrogate'; path: (string | number)[] };

export const LONE_SURROGATE_MESSAGE = 'Must be Unicode text: it contains a lone surrogate (\\ud800-\\udfff)';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * JSON text can spell a lone surrogate only with a `\uD800`-`\uDFFF` escape: decoding the bytes
 * as UTF-8 turns an encoded surrogate into U+FFFD. Without such an escape the parsed value is
 * text throughout, and is not walked.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Where the first string or key holding a lone surrogate is, or null when every one is text. */
const loneSurrogateAt = (value: unknown): (string | number)[] | null => {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? [] : null;
  if (value === null || typeof value !== 'object') return null;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && LONE_SURROGATE.test(key)) return [key];
    const found = loneSurrogateAt(item);
    if (found) return [key, ...found];
  }
  return null;
};

/** Parses a JSON body's text: blank or malformed is `invalid`; see ParsedJson for lone surrogates. */
export const parseJsonText = (text: string): ParsedJson => {
  if (text.trim() === '') return { kind: 'invalid' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid' };
  }
  const path = SURROGATE_ESCAPE.test(text) ? loneSurrogateAt(value) : null;
  return path ? { kind: 'lone_surrogate', path } : { kind: 'ok', value };
};

