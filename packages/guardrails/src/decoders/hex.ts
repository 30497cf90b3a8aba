/** Hex byte sequences that decode to readable text. */
import * as characters from '../text/characters.ts';
import { bytesFor } from './flat-string.ts';
import * as printables from './printable.ts';

// Local copies: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { hexDigitValue } = characters;
const { isPrintableByte, printableUtf8 } = printables;

/** Where decodeHexPayloads writes the bytes of a sequence, reused from call to call. */
let buffer = new Uint8Array(1 << 12);

const MIN_HEX_BYTES = 6;
const MAX_HEX_PAYLOADS = 16;

/** Where a "\x" or "0x" prefix before a byte ends, or i when there is none. */
function afterHexPrefix(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if ((code === 92 || code === 48) && (text.charCodeAt(i + 1) | 32) === 120 && hexDigitValue(text.charCodeAt(i + 2)) >= 0) {
    return i + 2;
  }
  return i;
}

/** A hex digit, or the backslash of a "\x" prefix ("0x" starts with a digit). */
const canStartByte = (code: number) => code === 92 || hexDigitValue(code) >= 0;

const isHexSeparator = (code: number) => code === 32 || code === 44 || code === 58 || code === 45;

/**
 * The texts hidden in hex byte sequences: "7072696e74...", "77 68 61 74 ...", "\x69\x67...",
 * "0x73,0x68,...". A sequence is byte pairs, each optionally prefixed by "\x" or "0x", with at most
 * one separator (space, comma, colon, hyphen) between them. Sequences of six bytes or more that
 * decode to readable text are returned. One pass: the reading position never moves back.
 */
export function decodeHexPayloads(text: string): string[] {
  const found: string[] = [];
  // Each byte is read from two characters or more: the text holds at most half as many bytes.
  const bytes = (buffer = bytesFor(buffer, text.length >> 1));
  let count = 0;
  let printable = 0;
  let i = 0;
  while (i < text.length) {
    const at = afterHexPrefix(text, i);
    const high = hexDigitValue(text.charCodeAt(at));
    const low = high < 0 ? -1 : hexDigitValue(text.charCodeAt(at + 1));
    if (low < 0) {
      if (count >= MIN_HEX_BYTES) addPayload(found, bytes.subarray(0, count), printable);
      count = 0;
      printable = 0;
      i = at + 1;
      // With no sequence open, a character that starts no byte (no hex digit, no "\" of "\x") only
      // moves the reading on: most of a message is such characters, each read once here.
      while (i < text.length && !canStartByte(text.charCodeAt(i))) i += 1;
      continue;
    }
    const byte = high * 16 + low;
    bytes[count++] = byte;
    if (isPrintableByte(byte)) printable += 1;
    i = at + 2;
    if (isHexSeparator(text.charCodeAt(i)) && hexDigitValue(text.charCodeAt(afterHexPrefix(text, i + 1))) >= 0) i += 1;
  }
  if (count >= MIN_HEX_BYTES) addPayload(found, bytes.subarray(0, count), printable);
  return found;
}

/** Adds the bytes of one sequence of MIN_HEX_BYTES or more, when they decode to readable text. */
function addPayload(found: string[], bytes: Uint8Array, printable: number): void {
  if (found.length >= MAX_HEX_PAYLOADS) return;
  const decoded = printableUtf8(bytes, printable);
  if (decoded !== null) found.push(decoded);
}
