import { isAsciiLetterOrDigit, isSymbolCode } from '../text/characters.ts';
import { normalizeText } from '../text/normalize.ts';
import { FOLDED_INVISIBLE, foldedCode } from './look-alikes.ts';

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
const MARK_TEXTS = ['', '.', '?', ':', ','];
const GLOSS_MARKS = new Uint8Array(0x10000);
for (const [marks, ascii] of [['.!;\n。！؛۔', '.'], ['?？؟', '?'], [':：', ':'], [',，、،', ',']] as const) {
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
  const out: string[] = [];
  let verbs: string[] = [];
  let rest: string[] = [];
  let inWord = false;
  const match: GlossMatch = { node: null, end: 0 };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < 128 && isAsciiLetterOrDigit(code)) {
      const start = i;
      while (i < text.length && isAsciiLetterOrDigit(text.charCodeAt(i))) i += 1;
      rest.push(text.slice(start, i));
      inWord = false;
      continue;
    }
    const mark = GLOSS_MARKS[code] as number;
    if (mark !== 0 || code < 128 || isSymbolCode(code)) {
      if (mark !== 0) {
        out.push(...verbs, ...rest, MARK_TEXTS[mark] as string);
        verbs = [];
        rest = [];
      }
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
    (node.verb ? verbs : rest).push(node.gloss as string);
    i = end;
  }
  out.push(...verbs, ...rest);
  return out.join(' ');
}

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
