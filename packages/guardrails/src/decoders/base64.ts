/** Base64 runs that decode to readable text. */
import { bytesFor } from './flat-string.ts';
import * as printables from './printable.ts';

// Local copies: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { isPrintableByte, printableUtf8 } = printables;

/** Where decodeBase64Text writes a run's bytes, reused from call to call. */
let buffer = new Uint8Array(1 << 12);

/** The text a base64 run encodes, when it is readable UTF-8; null for binary or invalid input. */
export function decodeBase64Text(run: string): string | null {
  let binary: string;
  try {
    // Padding ("=") is not part of the run; atob reads a last group of two or three characters
    // without it. A single character left over encodes no whole byte and is dropped.
    binary = atob(run.length % 4 === 1 ? run.slice(0, -1) : run);
  } catch {
    return null;
  }
  const bytes = (buffer = bytesFor(buffer, binary.length));
  let printable = 0;
  for (let i = 0; i < binary.length; i += 1) {
    const byte = binary.charCodeAt(i);
    bytes[i] = byte;
    if (isPrintableByte(byte)) printable += 1;
  }
  return printableUtf8(bytes.subarray(0, binary.length), printable);
}
