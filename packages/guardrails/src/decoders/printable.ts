/** Whether decoded bytes are text worth reading: mostly printable, and valid UTF-8. */

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const MIN_PRINTABLE_SHARE = 0.8;

export const isPrintableByte = (byte: number) =>
  (byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The bytes as text when at least MIN_PRINTABLE_SHARE of them are printable ASCII and they are valid UTF-8. */
export function printableUtf8(bytes: Uint8Array, printable: number): string | null {
  if (printable < bytes.length * MIN_PRINTABLE_SHARE) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}
