/** Misspellings that still count: a word one slip away from a typo target ("pasword", "ignroe"). */
export const MIN_TYPO_LENGTH = 4;
export const MAX_TYPO_LENGTH = 14;
/** Below this length only a swap of two neighbouring letters counts: "rlues", "shwo", but not "roles". */
export const MIN_ANY_EDIT_LENGTH = 6;

export function typoSlot(firstLetter: number, length: number): number {
  return firstLetter * (MAX_TYPO_LENGTH + 1) + length;
}

/**
 * The typo target an unknown word is one slip away from, or null: one pair of neighbouring
 * letters swapped ("ignroe", "previuos"), or for targets of six letters or more also one letter
 * dropped ("promt"), added or replaced ("pasword" is a drop). A target plus "s" or "d" is an
 * inflection, not a typo, and stays unknown ("systems", "ignored"). Only the few targets with the
 * word's first letter and a near length are compared, each up to its second difference, so the cost
 * stays a small constant per word.
 */
export function readTypo(targets: readonly string[], text: string, start: number, length: number): string | null {
  for (const target of targets) {
    if (isOneSlipFrom(text, start, length, target)) return target;
  }
  return null;
}

function lowerLetterAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function isOneSlipFrom(text: string, start: number, length: number, target: string): boolean {
  const shorter = Math.min(length, target.length);
  let i = 0;
  while (i < shorter && lowerLetterAt(text, start + i) === target.charCodeAt(i)) i += 1;
  if (i === length && i === target.length) return false;
  const slip = lowerLetterAt(text, start + i);
  if (i < length && (slip < 97 || slip > 122)) return false;
  if (length === target.length + 1) {
    if (i === target.length && (slip === 115 || slip === 100)) return false;
    return restMatches(text, start, length, i + 1, target, i);
  }
  if (length === target.length - 1) return restMatches(text, start, length, i, target, i + 1);
  const swapped =
    i + 1 < length &&
    slip === target.charCodeAt(i + 1) &&
    lowerLetterAt(text, start + i + 1) === target.charCodeAt(i) &&
    restMatches(text, start, length, i + 2, target, i + 2);
  return swapped || (target.length >= MIN_ANY_EDIT_LENGTH && restMatches(text, start, length, i + 1, target, i + 1));
}

/** Whether the word's letters from `from` on equal the target's from `to` on, to the end of both. */
function restMatches(text: string, start: number, length: number, from: number, target: string, to: number): boolean {
  if (length - from !== target.length - to) return false;
  for (; from < length; from += 1, to += 1) {
    if (lowerLetterAt(text, start + from) !== target.charCodeAt(to)) return false;
  }
  return true;
}
