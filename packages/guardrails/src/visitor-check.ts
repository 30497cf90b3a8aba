/**
 * The visitor-message check: the rules first; then the learned scorer, which catches what the rules
 * miss when it finds a window of the message attack-like enough. A rule's match stands unless the
 * scorer finds every window of the message clearly benign (below its veto): the rules' false
 * positives are ordinary recruiting text that happens to read like an order. The trainer sets no
 * veto (0) unless one survives attacks padded out with ordinary text, and none has yet, so today a
 * rule's match always stands.
 */
import type { MessageVerdict } from './block-reasons.ts';
import { LEARNED_SCORER, type WindowScores } from './learned-scorer.ts';
import { readMessage, ruleVerdict, type MessageReading } from './message-rules.ts';

/** The scorer's verdict on a message, and the score it came from. */
export function modelVerdict(reading: MessageReading, scorer = LEARNED_SCORER): { verdict: MessageVerdict; score: WindowScores } {
  const score = scorer.score(reading.texts);
  return { verdict: score.attack >= scorer.threshold ? { blocked: true, reason: score.reason } : { blocked: false }, score };
}

/**
 * The fewest words of a message whose rule match the scorer may overrule. Short messages are orders
 * or questions, where a rule's match is rarely wrong, and the rules read more languages than the
 * scorer learned: for a short message in Finnish the scorer finds no attack because it reads
 * nothing it knows. The rules' false positives are long texts (job descriptions, interview briefs).
 */
export const VETO_MIN_WORDS = 40;

function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const space = code === 32 || code === 10 || code === 9 || code === 13;
    if (!space && !inWord) words += 1;
    inWord = !space;
  }
  return words;
}

/**
 * Whether the scorer overrules a rule's match: the message is long enough, and the scorer finds no
 * window of it even `veto` attack-like.
 */
export function vetoes(reading: MessageReading, scorer = LEARNED_SCORER): boolean {
  return scorer.veto > 0 && wordCount(reading.texts[0] as string) >= VETO_MIN_WORDS && !scorer.reaches(reading.texts, scorer.veto);
}

/** Decides whether a visitor's message is an attack on the bot, and which kind. */
export function checkVisitorMessage(message: string): MessageVerdict {
  const reading = readMessage(message);
  const rules = ruleVerdict(reading);
  if (rules.blocked) return vetoes(reading) ? { blocked: false } : rules;
  return modelVerdict(reading).verdict;
}
