const URL_ESCAPES = /%([0-9a-f]{2})/gi;

/** The text with each %XX escape replaced by its byte, read as Latin-1 ("%69%67" -> "ig"). */
export function decodeUrlEscapes(text: string): string {
  return text.replace(URL_ESCAPES, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
