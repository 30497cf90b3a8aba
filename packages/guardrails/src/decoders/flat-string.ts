/**
 * A buffer of at least `length` codes, kept by its caller from call to call: the decoders, the plain
 * form and the mention blanking write a text's codes into one and make a string of them, and a
 * check that allocates less leaves the garbage collector less to do.
 */
export function codesFor(buffer: Uint16Array<ArrayBuffer>, length: number): Uint16Array<ArrayBuffer> {
  return buffer.length >= length ? buffer : new Uint16Array(Math.max(2 * buffer.length, length));
}

/** The same for bytes: a payload's bytes before they are decoded, a one-byte string's before it is made. */
export function bytesFor(buffer: Uint8Array<ArrayBuffer>, length: number): Uint8Array<ArrayBuffer> {
  return buffer.length >= length ? buffer : new Uint8Array(Math.max(2 * buffer.length, length));
}

/** Whether a Uint16Array's bytes are little-endian, as a UTF-16LE decoder reads them. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const CHUNK = 4096;

/**
 * Room for the bytes of a one-byte string, reused from call to call: the string is a copy of them,
 * and a check that allocates less leaves the garbage collector less to do.
 */
let latin1Bytes = new Uint8Array(CHUNK);

/**
 * One flat string from UTF-16 codes, lone surrogates kept. Text built up piece by piece is a rope
 * that tokenize would read more slowly, and that slows its reading of every other message too.
 * Decoding the codes' bytes as UTF-16LE costs a hundredth of spreading them into fromCharCode. Codes
 * that all fit in a byte are decoded as Latin-1: the same text, in a string of half the size.
 */
export function flatString(codes: Uint16Array): string {
  if (fitsLatin1(codes)) return latin1String(codes);
  if (LITTLE_ENDIAN) return Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).toString('utf16le');
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += CHUNK) parts.push(String.fromCharCode(...codes.subarray(i, i + CHUNK)));
  return parts.join('');
}

function fitsLatin1(codes: Uint16Array): boolean {
  for (let i = 0; i < codes.length; i += 1) if ((codes[i] as number) > 0xff) return false;
  return true;
}

/** The string of codes that are all below 256: each is its own Latin-1 byte. */
function latin1String(codes: Uint16Array): string {
  latin1Bytes = bytesFor(latin1Bytes, codes.length);
  latin1Bytes.set(codes);
  return Buffer.from(latin1Bytes.buffer, 0, codes.length).toString('latin1');
}
