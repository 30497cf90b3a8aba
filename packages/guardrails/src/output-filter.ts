import { instructionsPart } from '@careerbot/prompt';

/** What a visitor sees when nothing worth sending is left of a reply. */
export const FALLBACK_REPLY =
  "Sorry, I can't share that. Feel free to ask me about the candidate's experience, skills or projects.";

/** Every removed part (a key, an address, a stack trace, an echoed rule) is replaced by this marker. */
export const REMOVED = '[removed]';

export interface ReplyContext {
  systemPrompt: string;
  /** The owner's context: e-mail addresses and phone numbers that appear in it may be shared. */
  contextText: string;
  /** The visitor's own LLM key, removed wherever it appears. */
  callerKey: string;
}

/** The reply cleaner: `createReplyCleaner()` makes one, which whoever answers visitors keeps. */
export interface ReplyCleaner {
  /**
   * Removes from a model reply whatever must not reach the visitor: key-shaped strings and the
   * caller's key, passages that repeat the bot's instructions, stack traces and internal errors,
   * card numbers, and e-mail addresses or phone numbers that the owner's context does not contain.
   * Only the offending parts go; if nothing meaningful is left, the reply is FALLBACK_REPLY.
   * Every step is a single pass or a bounded pattern, so the cost is linear in the reply's length.
   */
  sanitizeReply(reply: string, context: ReplyContext): string;
  /**
   * The same cleaning on a reply that arrives in chunks. `push` returns the text that can be sent
   * now; `end` returns the rest and the whole cleaned reply, which equals `sanitizeReply` of the
   * joined chunks, and begins with everything `push` returned: nothing sent is ever taken back.
   */
  stream(context: ReplyContext): StreamingReplyCleaner;
}

export interface StreamingReplyCleaner {
  push(chunk: string): string;
  end(): { delta: string; reply: string };
  /** Characters received but not yet sent. */
  readonly heldBack: number;
}

/**
 * The instructions differ only by the bot's name and personality, so a cleaner keeps their
 * shingles for the next reply instead of rebuilding them per request (bounded, oldest dropped).
 */
const SHINGLE_MEMO_SIZE = 256;

export function createReplyCleaner(): ReplyCleaner {
  const shingleMemo = new Map<string, Set<string>>();
  const instructionShingles = (instructionsText: string): Set<string> => {
    let found = shingleMemo.get(instructionsText);
    if (!found) {
      found = shingles(instructionsText);
      if (shingleMemo.size >= SHINGLE_MEMO_SIZE) shingleMemo.delete(shingleMemo.keys().next().value!);
      shingleMemo.set(instructionsText, found);
    }
    return found;
  };
  const instructionsOf = (context: ReplyContext) => instructionShingles(instructionsPart(context.systemPrompt, context.contextText));
  const clean = (reply: string, context: ReplyContext, instructions = instructionsOf(context), verdicts?: Map<string, boolean>): string => {
    let text = removeCallerKey(reply, context.callerKey);
    text = removeKeyShapedStrings(text);
    text = removeInternalErrors(text);
    text = removePromptEchoes(text, instructions, verdicts);
    text = removeCardNumbers(text);
    text = removeUnlistedEmails(text, context.contextText);
    return removeUnlistedPhoneNumbers(text, context.contextText);
  };
  const sanitizeReply = (reply: string, context: ReplyContext): string => {
    const text = clean(reply, context);
    const tidied = tidy(text);
    return isMeaningful(tidied, text !== reply) ? tidied : FALLBACK_REPLY;
  };
  return {
    sanitizeReply,
    stream(context) {
      // Each settled prefix is cleaned whole, so its sentences come back at every cut: the
      // instructions' shingles are found once per reply, and each sentence's verdict is kept.
      const instructions = instructionsOf(context);
      const verdicts = new Map<string, boolean>();
      let raw = '';
      let sent = '';
      let lastCut = 0;
      return {
        push(chunk) {
          const judged = Math.max(lastCut, raw.length - 1);
          raw += chunk;
          const cut = lastSafeCut(raw, judged, context.callerKey);
          if (cut <= judged) return '';
          lastCut = cut;
          const settled = withoutTrailingMarker(tidy(clean(raw.slice(0, cut), context, instructions, verdicts)));
          if (countWords(settled, MIN_WORDS_AFTER_REMOVAL) < MIN_WORDS_AFTER_REMOVAL || !settled.startsWith(sent)) return '';
          const delta = settled.slice(sent.length);
          sent = settled;
          return delta;
        },
        end() {
          const reply = sanitizeReply(raw, context);
          // lastSafeCut is built so that this always holds (the property test in output-filter-stream.test.ts).
          const delta = reply.startsWith(sent) ? reply.slice(sent.length) : '';
          sent = reply;
          return { delta, reply };
        },
        get heldBack() {
          return Math.max(0, raw.length - lastCut);
        },
      };
    },
  };
}

// ------------------------------------------------------------------ streaming: where a prefix is settled

/**
 * The last place in `raw` up to which no later text can change what the cleaner does: after a line
 * break, or after the end of a sentence ([.!?] and a space) on a line that cannot become a stack-trace
 * line. A place is not settled when what precedes it could still be part of something removed: the
 * start of the caller's key, a 32-hex string whose neighbouring words are not all known yet, "Bearer"
 * waiting for its token, or digits a phone number could continue.
 *
 * Whether a place is a cut depends only on the text before it and the one character after it, so
 * the streaming cleaner passes as `from` the last place it already judged with that character known
 * (one before the previous end of `raw`): each place is judged once, not once per chunk.
 */
function lastSafeCut(raw: string, from: number, callerKey: string): number {
  for (let end = raw.length; end > from; end -= 1) {
    const code = raw.charCodeAt(end - 1);
    if (code !== 10 && code !== 32 && code !== 9) continue;
    if (isCut(raw, end) && isSettled(raw.slice(0, end), callerKey)) return end;
  }
  return from;
}

const SENTENCE_CUT = /[.!?]+[ \t]+$/;
const PHONE_CONTINUES = /[\d()\-. \t][.!?]+[ \t]+$/;
const STACK_LINE_START = /^\s*(?:at\s|File\s|[\w$.]*(?:Error|Exception)(?:[^\w$.]|$))|^\s*[\w$.]*$/;

function isCut(raw: string, end: number): boolean {
  if (raw.charCodeAt(end - 1) === 10) return true;
  // A sentence cut: at the end of a run of spaces (later spaces are tidied away), on a line that cannot turn into a stack trace.
  const after = raw.charCodeAt(end);
  if (after === 32 || after === 9) return false;
  const head = raw.slice(0, end);
  const line = head.slice(head.lastIndexOf('\n') + 1);
  return SENTENCE_CUT.test(line) && !PHONE_CONTINUES.test(line) && !STACK_LINE_START.test(line);
}

/** A 32-hex string is judged by the words within KEY_WORD_REACH of it (with room for markers shifting them). */
const HEX_REACH = 32 + 3 * 40; // KEY_WORD_REACH is 40 (declared below)

function isSettled(head: string, callerKey: string): boolean {
  if (/[Bb]earer\s*$/.test(head)) return false;
  if (/[0-9a-fA-F]{32}/.test(head.slice(-HEX_REACH))) return false;
  const key = callerKey.trim();
  if (key.length >= MIN_CALLER_KEY_LENGTH) {
    for (let length = 1; length < key.length; length += 1) if (head.endsWith(key.slice(0, length))) return false;
  }
  return true;
}

function withoutTrailingMarker(text: string): string {
  let result = text;
  while (result.endsWith(REMOVED)) result = result.slice(0, -REMOVED.length).trimEnd();
  return result;
}

// ------------------------------------------------------------------ keys

const MIN_CALLER_KEY_LENGTH = 8;

function removeCallerKey(text: string, callerKey: string): string {
  const key = callerKey.trim();
  return key.length >= MIN_CALLER_KEY_LENGTH ? text.split(key).join(REMOVED) : text;
}

const KEY_PATTERNS: readonly RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g,
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bcbt_[0-9a-f]{64}\b/g,
  /\b[Bb]earer\s+(?=[A-Za-z._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*/g,
  /\b[Bb]earer\s+[A-Za-z0-9._~+/-]{24,}=*/g,
  /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
];

const HEX_32 = /\b[0-9a-fA-F]{32}\b/g;
const KEY_WORD = /\b(?:api[ _-]?keys?|keys?|secrets?|tokens?|subscription|credentials?|passwords?)\b/i;
const KEY_WORD_REACH = 40;

/**
 * OpenAI, Anthropic and Google keys, bot tokens, bearer tokens and JWTs. A 32-hex string counts as
 * an Azure key only next to a word such as key, secret or token: commit hashes are ordinary content.
 */
function removeKeyShapedStrings(text: string): string {
  let result = text;
  for (const pattern of KEY_PATTERNS) result = result.replace(pattern, REMOVED);
  return result.replace(HEX_32, (hex: string, offset: number, whole: string) => {
    const before = whole.slice(Math.max(0, offset - KEY_WORD_REACH), offset);
    const after = whole.slice(offset + hex.length, offset + hex.length + KEY_WORD_REACH);
    return KEY_WORD.test(before) || KEY_WORD.test(after) ? REMOVED : hex;
  });
}

// ------------------------------------------------------------------ stack traces and internal errors

/** Lines that are part of a stack trace, told by how they begin. */
const INTERNAL_ERROR_LINES: readonly RegExp[] = [
  /^\s*at\s.*:\d+/,
  /^\s*at\s+\S+\s+\(.*\)\s*$/,
  /^\s*(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?::|\s*$)/,
  /^\s*File ".*", line \d+/,
];

/** Sentences that quote an internal error, wherever they stand in a line. */
const INTERNAL_ERROR_SENTENCES: readonly RegExp[] = [
  /Traceback \(most recent call last\)/,
  /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EADDRINUSE|EHOSTUNREACH|EPIPE)\b/,
  /\bnode:internal\b/,
];

/** Sentences end at [.!?] followed by spaces: the same places where the streaming cleaner may cut. */
const SENTENCE_SPLIT = /(?<=[.!?])([ \t]+)/;

/**
 * Stack-trace lines, and sentences quoting internal errors (removed by sentence, not by line, so a
 * reply that streams need not wait for the end of a line); a run of removed lines becomes one marker.
 */
function removeInternalErrors(text: string): string {
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const cleaned = INTERNAL_ERROR_LINES.some((pattern) => pattern.test(line))
      ? REMOVED
      : line
          .split(SENTENCE_SPLIT)
          .map((part, i) => (i % 2 === 0 && INTERNAL_ERROR_SENTENCES.some((p) => p.test(part)) ? REMOVED : part))
          .join('');
    if (cleaned !== REMOVED || kept[kept.length - 1] !== REMOVED) kept.push(cleaned);
  }
  return kept.join('\n');
}

// ------------------------------------------------------------------ echoes of the system prompt

/** A sentence sharing this many consecutive words with the bot's instructions repeats them. */
const ECHO_WORDS = 8;
const SENTENCE = /[^.!?\n]+(?:[.!?]+|\n|$)/g;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

function shingles(text: string): Set<string> {
  const list = words(text);
  const found = new Set<string>();
  for (let i = 0; i + ECHO_WORDS <= list.length; i += 1) found.add(list.slice(i, i + ECHO_WORDS).join(' '));
  return found;
}

function echoes(sentence: string, instructions: Set<string>): boolean {
  const list = words(sentence);
  for (let i = 0; i + ECHO_WORDS <= list.length; i += 1) {
    if (instructions.has(list.slice(i, i + ECHO_WORDS).join(' '))) return true;
  }
  return false;
}

/** A streamed reply's sentences judged so far; beyond this many, the others are judged each time. */
const JUDGED_SENTENCES_KEPT = 1_024;

/**
 * Sentences that repeat the instructions of the system prompt (not its context: answering from the
 * owner's context is the bot's job). `verdicts` keeps them for the next cleaning of the same reply.
 */
function removePromptEchoes(text: string, instructions: Set<string>, verdicts?: Map<string, boolean>): string {
  if (instructions.size === 0) return text;
  return text.replace(SENTENCE, (sentence) => {
    let echoed = verdicts?.get(sentence);
    if (echoed === undefined) {
      echoed = echoes(sentence, instructions);
      if (verdicts && verdicts.size < JUDGED_SENTENCES_KEPT) verdicts.set(sentence, echoed);
    }
    if (!echoed) return sentence;
    return sentence.endsWith('\n') ? `${REMOVED}\n` : `${REMOVED} `;
  });
}

// ------------------------------------------------------------------ card numbers

const CARD_LIKE = /\b\d(?:[ -]?\d){12,18}\b/g;

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function removeCardNumbers(text: string): string {
  return text.replace(CARD_LIKE, (match) => (passesLuhn(match.replace(/\D/g, '')) ? REMOVED : match));
}

// ------------------------------------------------------------------ e-mail addresses

interface Found {
  start: number;
  end: number;
  value: string;
}

const MAX_LOCAL_PART = 64;
const MAX_DOMAIN = 253;
const isEmailLocalChar = (code: number) =>
  isAsciiAlphanumeric(code) || code === 46 || code === 95 || code === 37 || code === 43 || code === 45;
const isDomainChar = (code: number) => isAsciiAlphanumeric(code) || code === 46 || code === 45;

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** E-mail addresses, found from each "@" outwards with bounded scans, never with a backtracking pattern. */
function findEmails(text: string): Found[] {
  const found: Found[] = [];
  let at = text.indexOf('@');
  while (at !== -1) {
    let start = at;
    while (start > 0 && at - start < MAX_LOCAL_PART && isEmailLocalChar(text.charCodeAt(start - 1))) start -= 1;
    while (start < at && text[start] === '.') start += 1;
    let end = at + 1;
    while (end < text.length && end - at <= MAX_DOMAIN && isDomainChar(text.charCodeAt(end))) end += 1;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end -= 1;
    const domain = text.slice(at + 1, end);
    if (start < at && /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(domain)) {
      found.push({ start, end, value: text.slice(start, end).toLowerCase() });
    }
    at = text.indexOf('@', at + 1);
  }
  return found;
}

function replaceFound(text: string, found: Found[], keep: (value: string) => boolean): string {
  let result = '';
  let cursor = 0;
  for (const item of found) {
    if (item.start < cursor || keep(item.value)) continue;
    result += text.slice(cursor, item.start) + REMOVED;
    cursor = item.end;
  }
  return result + text.slice(cursor);
}

function removeUnlistedEmails(text: string, contextText: string): string {
  const found = findEmails(text);
  if (found.length === 0) return text;
  const shared = new Set(findEmails(contextText).map((email) => email.value));
  return replaceFound(text, found, (email) => shared.has(email));
}

// ------------------------------------------------------------------ phone numbers

const PHONE_LIKE = /\+?\(?\d[\d \t().-]{5,20}\d/g;
const YEAR_RANGE = /^(?:19|20)\d\d\s*[-.]\s*(?:19|20)\d\d$/;
const ISO_DATE = /^\d{4}-\d\d-\d\d/;
const DOTTED_NUMBER = /^[\d.]+$/;

function looksLikePhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  const international = candidate.startsWith('+');
  if (digits < (international ? 8 : 9) || digits > 15) return false;
  return !YEAR_RANGE.test(candidate) && !ISO_DATE.test(candidate) && !DOTTED_NUMBER.test(candidate);
}

function findPhones(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(PHONE_LIKE)) {
    const value = match[0].trim();
    if (looksLikePhone(value)) {
      found.push({ start: match.index, end: match.index + match[0].length, value: value.replace(/\D/g, '') });
    }
  }
  return found;
}

function removeUnlistedPhoneNumbers(text: string, contextText: string): string {
  const found = findPhones(text);
  if (found.length === 0) return text;
  const shared = new Set(findPhones(contextText).map((phone) => phone.value));
  const sharedEndings = [...shared].map((digits) => digits.slice(-9));
  return replaceFound(text, found, (digits) => shared.has(digits) || sharedEndings.includes(digits.slice(-9)));
}

// ------------------------------------------------------------------ tidying up

const REPEATED_MARKERS = /\[removed\](?:[ \t]*\[removed\])+/g;

function tidy(text: string): string {
  return text
    .replace(REPEATED_MARKERS, REMOVED)
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+([,.;:!?])/g, '$1')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const WORD = /[\p{L}\p{N}]{2,}/gu;
/** Once something was removed, a reply needs this many words besides the markers to be worth sending. */
const MIN_WORDS_AFTER_REMOVAL = 3;

/** The words besides the markers, counted up to `enough`. */
function countWords(text: string, enough = Infinity): number {
  let count = 0;
  for (const _word of text.split(REMOVED).join(' ').matchAll(WORD)) if (++count >= enough) break;
  return count;
}

function isMeaningful(text: string, somethingRemoved: boolean): boolean {
  return countWords(text) >= (somethingRemoved ? MIN_WORDS_AFTER_REMOVAL : 1);
}
