/**
 * The words the filter knows, as a trie that the tokenizer walks letter by letter, and the fixed
 * tokens (boundaries, the unknown word) every vocabulary starts with.
 */
import { MIN_ANY_EDIT_LENGTH, typoSlot } from '../decoders/typos.ts';
import { A } from './characters.ts';

/** Sentence ends become this token, so rules can keep a match inside one sentence. */
export const SENTENCE_END = '.';
/** A question mark ends a sentence too, and says it was a question. */
export const QUESTION_END = '?';
/** Colons and equals signs become this token: "Previous directions: null", "name = Grom". */
export const LABEL_END = ':';
/** Commas become this token, so "we lost it, so please output ..." reads as a new clause. */
export const CLAUSE_END = ',';
/** Words outside the vocabulary become this token: the filter never needs their text. */
export const UNKNOWN_WORD = '';

/**
 * Tokens are word ids, numbers into the vocabulary's list of texts. The first ids are fixed: the
 * unknown word, the four boundaries, the 26 single letters and "zero".
 */
export const UNKNOWN_ID = 0;
export const SENTENCE_END_ID = 1;
export const QUESTION_END_ID = 2;
export const LABEL_END_ID = 3;
export const CLAUSE_END_ID = 4;
export const FIRST_LETTER_ID = 5;
export const ZERO_ID = FIRST_LETTER_ID + 26;
/** The number 0 is kept as a word ("message #0"); other numbers are unknown words. */
const ZERO = 'zero';
const FIXED_WORDS = [UNKNOWN_WORD, SENTENCE_END, QUESTION_END, LABEL_END, CLAUSE_END];

/** How strongly each boundary id separates: next to another boundary only the stronger one stays. */
export const BOUNDARY_STRENGTH = Uint8Array.of(0, 3, 3, 2, 1);

export function isBoundaryId(id: number): boolean {
  return id >= SENTENCE_END_ID && id <= CLAUSE_END_ID;
}

export function isSentenceEndId(id: number): boolean {
  return id === SENTENCE_END_ID || id === QUESTION_END_ID;
}

/** label[node] for a node with several children, looked up in the branch table. */
const BRANCHING = 255;
/** label[node] for a node without children. */
const LEAF = 254;

/**
 * The words the filter knows, as a trie over the letters a-z. Nodes are laid out so that a node with
 * a single child has it right after itself: most nodes are such, so a step is one byte read from a
 * small table, and only branching nodes keep a row of 26 children. The whole trie stays in the cache.
 */
export interface Vocabulary {
  /** The single child's letter (0-25) of each node, or BRANCHING or LEAF; node 0 is the root. */
  readonly label: Uint8Array;
  /** For a branching node, its row in `branches`. */
  readonly branchRow: Uint16Array;
  /** branches[row * 26 + letter] is the child node, 0 when there is none (the root is no one's child). */
  readonly branches: Uint16Array;
  /** The id of the word that ends at each node, or UNKNOWN_ID. */
  readonly wordIds: Uint16Array;
  /** Each id's text. */
  readonly texts: readonly string[];
  /** Each text's id. */
  readonly ids: ReadonlyMap<string, number>;
  /** The typo targets a word may be a misspelling of, by typoSlot(first letter, length); see readTypo. */
  readonly typoTargets: (string[] | undefined)[];
}

interface BuildNode {
  readonly children: Map<number, BuildNode>;
  wordId: number;
}

/** typoTargets: words worth reading through one typo ("pasword", "ignroe"); they join the vocabulary too. */
export function buildVocabulary(words: Iterable<string>, typoTargets: Iterable<string> = []): Vocabulary {
  const texts = [...FIXED_WORDS];
  for (let code = 97; code <= 122; code += 1) texts.push(String.fromCharCode(code));
  texts.push(ZERO);
  const letterWords = new Set<string>(texts.slice(FIRST_LETTER_ID));
  for (const word of words) if (/^[a-z]+$/.test(word)) letterWords.add(word);
  const bySlot = new Array<string[] | undefined>(typoSlot(26, 0));
  for (const target of typoTargets) {
    if (!/^[a-z]{4,13}$/.test(target)) continue;
    letterWords.add(target);
    const anyEdit = target.length >= MIN_ANY_EDIT_LENGTH;
    for (let length = target.length - 1; length <= target.length + 1; length += 1) {
      if (length !== target.length && !anyEdit) continue;
      (bySlot[typoSlot(target.charCodeAt(0) - 97, length)] ??= []).push(target);
    }
  }
  const ids = new Map(texts.map((text, id) => [text, id]));
  for (const word of letterWords) if (!ids.has(word)) ids.set(word, texts.push(word) - 1);
  if (texts.length > 0xffff) throw new Error('The vocabulary is too large for its 16-bit ids.');

  const root: BuildNode = { children: new Map(), wordId: UNKNOWN_ID };
  let nodes = 1;
  for (const word of letterWords) {
    let node = root;
    for (let i = 0; i < word.length; i += 1) {
      const letter = word.charCodeAt(i) - A;
      let child = node.children.get(letter);
      if (!child) {
        node.children.set(letter, (child = { children: new Map(), wordId: UNKNOWN_ID }));
        nodes += 1;
      }
      node = child;
    }
    node.wordId = ids.get(word) as number;
  }
  return { ...layOutTrie(root, nodes), texts, ids, typoTargets: bySlot };
}

/** Numbers the nodes depth first, so that a single child comes right after its parent. */
function layOutTrie(root: BuildNode, nodes: number) {
  if (nodes > 0xffff) throw new Error('The vocabulary is too large for its 16-bit trie.');
  const label = new Uint8Array(nodes);
  const branchRow = new Uint16Array(nodes);
  const wordIds = new Uint16Array(nodes);
  const rows: Uint16Array[] = [];
  let next = 0;
  const place = (node: BuildNode): number => {
    const at = next++;
    wordIds[at] = node.wordId;
    if (node.children.size === 0) {
      label[at] = LEAF;
    } else if (node.children.size === 1) {
      const [[letter, child]] = node.children as Map<number, BuildNode> & [[number, BuildNode]];
      label[at] = letter;
      place(child);
    } else {
      label[at] = BRANCHING;
      const row = new Uint16Array(26);
      branchRow[at] = rows.length;
      rows.push(row);
      for (const [letter, child] of [...node.children].sort((a, b) => a[0] - b[0])) row[letter] = place(child);
    }
    return at;
  };
  place(root);
  const branches = new Uint16Array(rows.length * 26);
  rows.forEach((row, i) => branches.set(row, i * 26));
  return { label, branchRow, branches, wordIds };
}

/** The node after reading one more letter (0-25), or NOT_IN_VOCABULARY. */
export function step(vocabulary: Vocabulary, node: number, letter: number): number {
  if (node < 0) return NOT_IN_VOCABULARY;
  const label = vocabulary.label[node] as number;
  if (label === letter) return node + 1;
  if (label !== BRANCHING) return NOT_IN_VOCABULARY;
  return (vocabulary.branches[(vocabulary.branchRow[node] as number) * 26 + letter] as number) || NOT_IN_VOCABULARY;
}

const NOT_IN_VOCABULARY = -1;

/** The id of the word read up to the node, or UNKNOWN_ID. */
export function wordIdAt(vocabulary: Vocabulary, node: number): number {
  return node > 0 ? (vocabulary.wordIds[node] as number) : UNKNOWN_ID;
}

