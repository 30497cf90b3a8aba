/**
 * A faster search for a regular expression that is a long alternation of words and phrases (the
 * job-document markers, the hidden-order markers). The regular-expression engine tries every
 * alternative at every position of the text; here a table of the three characters each
 * alternative can start with rules most positions out first, and the expression itself is tried,
 * anchored, only where one could start. The matches are the expression's own, found in the same
 * order: a position the table rules out is one where the expression cannot match.
 *
 * The table is read off the expression's source. What the reading does not follow exactly (an
 * assertion, a back-reference, a class of any character) only makes the table admit more
 * positions, never fewer.
 */

const ANY = 'any';
/** One character of a prefix: the code units it may be, or any. */
type CharSet = ReadonlySet<number> | typeof ANY;
/** The first characters of some matches: shorter than PREFIX_LENGTH when the match may end there. */
type Prefix = readonly CharSet[];

const PREFIX_LENGTH = 3;
/** Above this many concrete strings, a prefix is shortened rather than spelled out. */
const MAX_SPELLINGS = 64;
const TABLE_BITS = 16;
const TABLE_MASK = (1 << TABLE_BITS) - 1;

const hash2 = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ b) & TABLE_MASK;
const hash3 = (a: number, b: number, c: number) => (Math.imul(hash2(a, b), 0x85ebca77) ^ c) & TABLE_MASK;

export class PrefixFilteredPattern {
  private readonly anchored: RegExp;
  /** Whether some match may start with this code unit; a full table of the 2^16 code units. */
  private readonly first = new Uint8Array(1 << 16);
  /** Prefixes of one, two and three characters: a match may start where one of them stands. */
  private readonly ones = new Uint8Array(1 << 16);
  private readonly twos = new Uint8Array(1 << TABLE_BITS);
  private readonly threes = new Uint8Array(1 << TABLE_BITS);
  /** The first two characters of the prefixes of three, by hash2: most positions are ruled out on two characters. */
  private readonly threesStart = new Uint8Array(1 << TABLE_BITS);
  /** Some alternative may start with any character: every position is tried. */
  private readonly everywhere: boolean;
  /**
   * For two ASCII characters a, b: 0 when the tables above rule out a position where they stand,
   * without hashing the third (asciiPairs[a << 7 | b]); the tables decide where it is 1.
   */
  private readonly asciiPairs = new Uint8Array(1 << 14);

  constructor(pattern: RegExp) {
    if (/[iuv]/.test(pattern.flags)) throw new Error('PrefixFilteredPattern compares code units: no i, u or v flag');
    this.anchored = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '') + 'y');
    let everywhere = false;
    for (const prefix of prefixesOf(pattern.source)) {
      if (prefix.length === 0 || prefix[0] === ANY) everywhere = true;
      else this.admit(prefix);
    }
    this.everywhere = everywhere;
    for (let a = 0; a < 128; a += 1) {
      if (this.first[a] === 0) continue;
      for (let b = 0; b < 128; b += 1) {
        const two = hash2(a, b);
        const admitted = this.ones[a] === 1 || this.twos[two] === 1 || this.threesStart[two] === 1;
        this.asciiPairs[(a << 7) | b] = admitted ? 1 : 0;
      }
    }
  }

  /** The first match that starts at `from` or after, as a global search from lastIndex `from` finds it; null when none does. */
  exec(text: string, from = 0): RegExpExecArray | null {
    const { anchored, first, ones, twos, threes, threesStart } = this;
    const length = text.length;
    // A pattern that can match empty is tried everywhere, the end of the text included.
    if (this.everywhere) {
      for (let i = from; i <= length; i += 1) {
        anchored.lastIndex = i;
        const match = anchored.exec(text);
        if (match !== null) return match;
      }
      return null;
    }
    const { asciiPairs } = this;
    // Past the end a code of 0 stands in: it can only admit a position, which the pattern then rules out.
    let b = from < length ? text.charCodeAt(from) : 0;
    for (let i = from; i < length; i += 1) {
      // Each character is read once: the second of one pair is the first of the next.
      const a = b;
      b = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if ((a | b) < 128) {
        if (asciiPairs[(a << 7) | b] === 0) continue;
      } else if (first[a] === 0) continue;
      if (ones[a] === 0) {
        const two = hash2(a, b);
        if (twos[two] === 0 && (threesStart[two] === 0 || threes[hash3(a, b, i + 2 < length ? text.charCodeAt(i + 2) : 0)] === 0)) continue;
      }
      anchored.lastIndex = i;
      const match = anchored.exec(text);
      if (match !== null) return match;
    }
    return null;
  }

  private admit(prefix: Prefix): void {
    // Spelled out up to the first character that is any, or until there are too many spellings.
    let known = 0;
    let spellings = 1;
    while (known < prefix.length && prefix[known] !== ANY && spellings * (prefix[known] as Set<number>).size <= MAX_SPELLINGS) {
      spellings *= (prefix[known] as Set<number>).size;
      known += 1;
    }
    for (const a of prefix[0] as Set<number>) this.first[a] = 1;
    const sets = prefix.slice(0, Math.max(1, known)) as ReadonlySet<number>[];
    for (const codes of spell(sets)) {
      if (codes.length === 1) this.ones[codes[0] as number] = 1;
      else if (codes.length === 2) this.twos[hash2(codes[0] as number, codes[1] as number)] = 1;
      else {
        this.threes[hash3(codes[0] as number, codes[1] as number, codes[2] as number)] = 1;
        this.threesStart[hash2(codes[0] as number, codes[1] as number)] = 1;
      }
    }
  }
}

function* spell(sets: readonly ReadonlySet<number>[], at = 0, codes: number[] = []): Generator<number[]> {
  if (at === sets.length) {
    yield [...codes];
    return;
  }
  for (const code of sets[at] as ReadonlySet<number>) {
    codes.push(code);
    yield* spell(sets, at + 1, codes);
    codes.pop();
  }
}

/** The first PREFIX_LENGTH characters of every match of the source (shorter where a match may end). */
function prefixesOf(source: string): Prefix[] {
  const reader = new SourceReader(source);
  const prefixes = reader.alternation();
  if (!reader.done()) throw new Error(`PrefixFilteredPattern cannot read the pattern at ${reader.at}`);
  return prefixes;
}

const set = (chars: string) => new Set(Array.from(chars, (c) => c.charCodeAt(0)));
const DIGITS = set('0123456789');
const CONTROL_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', 0: '\0' };

/** Reads a pattern's source into the prefixes of its matches: a recursive descent over its syntax. */
class SourceReader {
  at = 0;

  constructor(private readonly source: string) {}

  done(): boolean {
    return this.at === this.source.length;
  }

  private peek(): string {
    return this.source[this.at] ?? '';
  }

  /** a|b|c up to a closing parenthesis or the end. */
  alternation(): Prefix[] {
    const prefixes = this.sequence();
    while (this.peek() === '|') {
      this.at += 1;
      prefixes.push(...this.sequence());
    }
    return dedupe(prefixes);
  }

  private sequence(): Prefix[] {
    let prefixes: Prefix[] = [[]];
    while (!this.done() && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.quantified(this.atom());
      prefixes = dedupe(concat(prefixes, atom));
    }
    return prefixes;
  }

  private quantified(atom: Prefix[]): Prefix[] {
    const char = this.peek();
    let min: number;
    let max: number;
    if (char === '?') [min, max] = [0, 1];
    else if (char === '*') [min, max] = [0, Infinity];
    else if (char === '+') [min, max] = [1, Infinity];
    else {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (braces === null) return atom;
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3]);
      this.at += braces[0].length - 1;
    }
    this.at += 1;
    if (this.peek() === '?') this.at += 1;
    // Copies past PREFIX_LENGTH add nothing to a prefix that length long (a copy may match empty, so min copies are kept).
    const most = Math.min(max, Math.max(min, PREFIX_LENGTH));
    const repeated: Prefix[] = [];
    let copies: Prefix[] = [[]];
    for (let count = 0; count <= most; count += 1) {
      if (count >= min) repeated.push(...copies);
      copies = dedupe(concat(copies, atom));
    }
    return dedupe(repeated);
  }

  private atom(): Prefix[] {
    const char = this.peek();
    this.at += 1;
    if (char === '(') {
      let zeroWidth = false;
      if (this.peek() === '?') {
        const kind = /^\?(:|=|!|<=|<!|<[A-Za-z_]\w*>)/.exec(this.source.slice(this.at));
        if (kind === null) throw new Error(`PrefixFilteredPattern cannot read the group at ${this.at}`);
        zeroWidth = kind[1] !== ':' && !(kind[1] as string).endsWith('>');
        this.at += kind[0].length;
      }
      const inner = this.alternation();
      if (this.peek() !== ')') throw new Error(`PrefixFilteredPattern: unclosed group before ${this.at}`);
      this.at += 1;
      // An assertion matches no characters: leaving out what it asks only admits more.
      return zeroWidth ? [[]] : inner;
    }
    if (char === '[') return [[this.charClass()]];
    if (char === '.') return [[ANY]];
    if (char === '^' || char === '$') return [[]];
    if (char === '\\') return this.escape();
    return [[set(char)]];
  }

  private escape(): Prefix[] {
    const char = this.peek();
    this.at += 1;
    if (char === 'b' || char === 'B') return [[]];
    if (char === 'd') return [[DIGITS]];
    if ('sSwWD'.includes(char)) return [[ANY]];
    const escaped = this.escaped(char);
    // A back-reference, or an escape not read here: any characters, as far as the table is concerned.
    if (escaped === null) return [Array.from({ length: PREFIX_LENGTH }, () => ANY)];
    return [[set(escaped)]];
  }

  /** The one character an escape stands for, or null for a class (\s, \w, ...) or an escape not read here. */
  private escaped(char: string): string | null {
    const control = CONTROL_ESCAPES[char];
    if (control !== undefined) return control;
    if (char === 'u' || char === 'x') {
      const digits = char === 'u' ? 4 : 2;
      const hex = this.source.slice(this.at, this.at + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) return null;
      this.at += digits;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    // An escaped punctuation mark stands for itself.
    return /[A-Za-z0-9]/.test(char) ? null : char;
  }

  /** [...]: the code units it admits, or any when it is negated or holds a class escape. */
  private charClass(): CharSet {
    const codes = new Set<number>();
    let any = false;
    if (this.peek() === '^') {
      any = true;
      this.at += 1;
    }
    while (this.peek() !== ']') {
      if (this.done()) throw new Error('PrefixFilteredPattern: unclosed character class');
      let char = this.peek();
      this.at += 1;
      if (char === '\\') {
        const escapedChar = this.peek();
        this.at += 1;
        const escaped = escapedChar === 'b' ? '\b' : this.escaped(escapedChar);
        if (escaped === null) {
          any = true;
          continue;
        }
        char = escaped;
      }
      let last = char;
      if (this.peek() === '-' && this.source[this.at + 1] !== ']') {
        this.at += 1;
        last = this.peek();
        this.at += 1;
        if (last === '\\') {
          const escaped = this.escaped(this.peek());
          this.at += 1;
          if (escaped === null) {
            any = true;
            continue;
          }
          last = escaped;
        }
      }
      for (let code = char.charCodeAt(0); code <= last.charCodeAt(0); code += 1) codes.add(code);
    }
    this.at += 1;
    return any ? ANY : codes;
  }
}

/** Every prefix of `a` followed by every prefix of `b`, cut at PREFIX_LENGTH. */
function concat(a: Prefix[], b: Prefix[]): Prefix[] {
  const out: Prefix[] = [];
  for (const head of a) {
    if (head.length >= PREFIX_LENGTH) {
      out.push(head);
      continue;
    }
    for (const tail of b) out.push([...head, ...tail].slice(0, PREFIX_LENGTH));
  }
  return out;
}

function dedupe(prefixes: Prefix[]): Prefix[] {
  const seen = new Map<string, Prefix>();
  for (const prefix of prefixes) {
    const key = prefix.map((chars) => (chars === ANY ? '*' : [...chars].sort((x, y) => x - y).join(','))).join('|');
    if (!seen.has(key)) seen.set(key, prefix);
  }
  return [...seen.values()];
}
