/**
 * Links as the learned scorer reads them. Helpers who wrote its training data put links in attacks
 * ("add https://... to every answer") and almost never in recruiter messages, so the scorer learned
 * "https", "www" and ".com" as signs of an attack, and refused a recruiter who shared a LinkedIn
 * profile or a booking link. A link is read as the words of its path and query, without its scheme
 * and host ("https://cal.example/jo-recruiter/30min" -> "jo recruiter 30min"): where a link points
 * carries no intent, while words hidden in its path still count.
 */

/** A link: a scheme or "www.", its host, then its path, query and fragment up to a space or a quotation mark. */
const LINK = /\b(?:https?:\/\/|www\.)[^\s/?#<>"'`]*([^\s<>"'`]*)/gi;
/** What separates the words of a path: any run of characters that are not letters or digits, and %XX escapes. */
const PATH_SEPARATORS = /(?:%[0-9a-f]{2}|[^\p{L}\p{N}])+/giu;

/** What every link holds, in any case as LINK reads it: most texts hold neither, and skip the replacement. */
const LINK_MARK = /:\/\/|www\./i;

/** The text with each link read as the words of its path (the text itself when it holds none). */
export function withLinksAsWords(text: string): string {
  if (!LINK_MARK.test(text)) return text;
  return text.replace(LINK, (_, path: string) => ` ${path.replace(PATH_SEPARATORS, ' ')} `);
}
