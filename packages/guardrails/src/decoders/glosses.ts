import * as characters from '../text/characters.ts';
import { normalizeText } from '../text/normalize.ts';
import { codesFor, flatString } from './flat-string.ts';
import * as lookAlikes from './look-alikes.ts';

// Local copies: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { isAsciiLetterOrDigit, isSymbolCode } = characters;
const { FOLDED_INVISIBLE, foldedCode } = lookAlikes;

/**
 * Words of languages the tokenizer cannot read as words (Cyrillic, Arabic, Chinese, Japanese, ...),
 * each with an English gloss the rules understand, as a trie over UTF-16 code units.
 */
export interface Glossary {
  readonly root: GlossNode;
}

interface GlossNode {
  readonly next: Map<number, GlossNode>;
  gloss: string | null;
  /** The gloss is a verb: it moves to the front of its clause ("指示を無視して" -> "ignore instructions"). */
  verb: boolean;
  /** The entry matches a whole word only, not the start of a longer one. */
  wholeWord: boolean;
}

const newGlossNode = (): GlossNode => ({ next: new Map(), gloss: null, verb: false, wholeWord: false });

function isMark(code: number): boolean {
  return code >= 0x80 && foldedCode(code) === FOLDED_INVISIBLE;
}

/** Lower case, accents and other marks dropped: the form glossText compares. */
function glossForm(text: string): string {
  let out = '';
  for (const char of normalizeText(text).toLowerCase()) if (!isMark(char.charCodeAt(0))) out += char;
  return out;
}

/**
 * Entries map a word, or the start of a word, to its gloss: "игнорир": "!ignore" ("!" marks a verb),
 * "ты$": "you are" ("$" asks for the whole word).
 */
export function buildGlossary(entries: Record<string, string>): Glossary {
  const root = newGlossNode();
  for (const [key, value] of Object.entries(entries)) {
    const wholeWord = key.endsWith('$');
    const form = glossForm(wholeWord ? key.slice(0, -1) : key);
    let node = root;
    for (let i = 0; i < form.length; i += 1) {
      const code = form.charCodeAt(i);
      let child = node.next.get(code);
      if (!child) node.next.set(code, (child = newGlossNode()));
      node = child;
    }
    node.verb = value.startsWith('!');
    node.gloss = node.verb ? value.slice(1) : value;
    node.wholeWord = wholeWord;
  }
  return { root };
}

/**
 * Chinese and Japanese script, and Korean (whose syllables NFD splits into jamo): words are not
 * spaced, or carry particles, so a gloss may start anywhere.
 */
function isUnspacedScript(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af)
  );
}

/**
 * Clause and sentence marks of all scripts, as the ASCII mark tokenize reads: MARK_TEXTS[GLOSS_MARKS[code]],
 * where 0 is no mark. A table by code unit, since glossText asks about nearly every character.
 */
const MARK_TEXTS = ['', '.', '?', ':', ',', '"'];
const GLOSS_MARKS = new Uint8Array(0x10000);
// Quotation marks are kept too: a job description quotes the attacks it is about (「以前の指示を無視して」).
for (const [marks, ascii] of [['.!;\n。！؛۔', '.'], ['?？؟', '?'], [':：', ':'], [',，、،', ','], ['"「」『』“”„«»', '"']] as const) {
  for (const mark of marks) GLOSS_MARKS[mark.charCodeAt(0)] = MARK_TEXTS.indexOf(ascii);
}

/** Whether the character at i is a letter of a spaced script: a word that starts before i goes on. */
function isSpacedLetterAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const code = text.charCodeAt(i);
  if (code < 128) return isAsciiLetterOrDigit(code);
  return !isSymbolCode(code) && !isUnspacedScript(code) && GLOSS_MARKS[code] === 0;
}

/**
 * An English reading of text in other scripts: each glossed word in order, verbs first in their
 * clause, Latin words ("API") kept, clause and sentence marks kept as ASCII; everything else is
 * dropped. One pass: each position starts at most one walk of the trie, which is as long as the
 * longest entry.
 */
export function glossText(normalized: string, glossary: Glossary): string {
  const text = normalized.toLowerCase();
  const out = new GlossWriter(text.length);
  let inWord = false;
  const match: GlossMatch = { node: null, end: 0 };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < 128 && isAsciiLetterOrDigit(code)) {
      const start = i;
      while (i < text.length && isAsciiLetterOrDigit(text.charCodeAt(i))) i += 1;
      out.word(text, start, i);
      inWord = false;
      continue;
    }
    const mark = GLOSS_MARKS[code] as number;
    if (mark !== 0 || code < 128 || isSymbolCode(code)) {
      if (mark !== 0) out.endClause(MARK_TEXTS[mark] as string);
      inWord = false;
      i += 1;
      continue;
    }
    const unspaced = isUnspacedScript(code);
    if (inWord && !unspaced) {
      i += 1;
      continue;
    }
    inWord = !unspaced;
    const { node, end } = longestGloss(glossary, text, i, match);
    if (node === null) {
      i += 1;
      continue;
    }
    const gloss = node.gloss as string;
    if (node.verb) out.verb(gloss);
    else out.word(gloss, 0, gloss.length);
    i = end;
  }
  out.endClause('');
  return out.text();
}

/** Where the gloss is written, reused from call to call (see GlossWriter). */
let glossCodes = new Uint16Array(1 << 13);

/**
 * The gloss as it is written: words separated by one space, each clause's verbs moved in front of
 * its other words. The words are copied code by code into one buffer, not kept as a string each;
 * the buffer is glossCodes, which a writer that needs more replaces with a larger one.
 */
class GlossWriter {
  private codes: Uint16Array;
  private length = 0;
  private words = 0;
  /** Where the current clause's words start, and how many words came before them. */
  private clauseStart = 0;
  private wordsBeforeClause = 0;
  /** The current clause's verbs, written when the clause ends: few clauses have one. */
  private readonly verbs: string[] = [];

  constructor(capacity: number) {
    this.codes = glossCodes = codesFor(glossCodes, capacity + 16);
  }

  word(source: string, start: number, end: number): void {
    this.reserve(end - start + 1);
    if (this.words > 0) this.codes[this.length++] = SPACE;
    for (let k = start; k < end; k += 1) this.codes[this.length++] = source.charCodeAt(k);
    this.words += 1;
  }

  verb(gloss: string): void {
    this.verbs.push(gloss);
  }

  /** Ends the clause with its mark, or with none (''), at the end of the text. */
  endClause(mark: string): void {
    if (this.verbs.length > 0) this.moveVerbsFirst();
    if (mark !== '') this.word(mark, 0, mark.length);
    this.clauseStart = this.length;
    this.wordsBeforeClause = this.words;
  }

  text(): string {
    return flatString(this.codes.subarray(0, this.length));
  }

  private moveVerbsFirst(): void {
    const others = this.codes.slice(this.clauseStart, this.length);
    const otherWords = this.words - this.wordsBeforeClause;
    this.length = this.clauseStart;
    this.words = this.wordsBeforeClause;
    for (const verb of this.verbs) this.word(verb, 0, verb.length);
    this.verbs.length = 0;
    if (otherWords === 0) return;
    // The other words were written with a space before the first unless it began the text.
    const body = this.wordsBeforeClause > 0 ? others.subarray(1) : others;
    this.reserve(body.length + 1);
    if (this.words > 0) this.codes[this.length++] = SPACE;
    this.codes.set(body, this.length);
    this.length += body.length;
    this.words += otherWords;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.codes.length) return;
    const larger = new Uint16Array(2 * (this.length + extra));
    larger.set(this.codes.subarray(0, this.length));
    this.codes = glossCodes = larger;
  }
}

const SPACE = 32;

/** The longest entry that starts at `start`, and where it ends: written into `match`, reused from word to word. */
interface GlossMatch {
  node: GlossNode | null;
  end: number;
}

function longestGloss(glossary: Glossary, text: string, start: number, match: GlossMatch): GlossMatch {
  let node: GlossNode | undefined = glossary.root;
  let best: GlossNode | null = null;
  let bestEnd = start;
  for (let i = start; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isMark(code)) continue;
    node = node.next.get(code);
    if (node === undefined) break;
    if (node.gloss !== null && (!node.wholeWord || !isSpacedLetterAt(text, i + 1))) {
      best = node;
      bestEnd = i + 1;
    }
  }
  match.node = best;
  match.end = bestEnd;
  return match;
}
