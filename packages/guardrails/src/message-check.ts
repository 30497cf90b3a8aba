/**
 * The visitor-message check. The rules first: a rule that matches says where (the passage, located
 * by rules/passage.ts) and why (its block reason). The learned scorer then reviews that passage
 * with a little of the text around it: when it finds it benign enough (below the model's veto,
 * earned on dev data), the match is overruled, since the same words are an attack when said to the
 * bot and not when relayed, quoted or part of a job description. A match that stands is named a
 * prompt injection when the order rides in content the visitor pasted (rules/hidden-order.ts),
 * whatever it asks for. Last, the scorer catches what the rules miss when it finds a window of the
 * message attack-like enough.
 */
import type { BlockReason, MessageVerdict } from './block-reasons.ts';
import { LearnedScorer, type ScorerModel, type WindowScores } from './learned-scorer.ts';
import { MessageReader, type MessageReading } from './message-reader.ts';
import { ruleMatches, RULES } from './rules/index.ts';
import { givesClassicOrder, glossSpeaksToTheBot, speaksToTheBot, withoutQuotations } from './rules/addressee.ts';
import { hidesOrderInPastedContent } from './rules/hidden-order.ts';
import { withoutCitedQuotations, withoutMentions, withoutQuotedExamples, withoutSenderFrames } from './rules/mentions.ts';
import { passagesWhere } from './rules/passage.ts';
import type { Scan } from './scan.ts';
import { TAG_LEAD_SURROGATE } from './text/normalize.ts';
import { withLinksAsWords } from './text/links.ts';
import { plainText } from './text/plain.ts';

export interface MessageCheck {
  /** Decides whether a visitor's message is an attack on the bot, and which kind. */
  checkVisitorMessage(message: string): MessageVerdict;
  /** The same verdict, with what the rules matched and how the scorer judged it. */
  explainVisitorMessage(message: string): Explanation;
}

/** Where a rule matched, and the scorer's review of that passage. */
export interface RuleFinding {
  readonly reason: BlockReason;
  /** Which reading of the message the rule matched: 0 is the message itself, then decoded texts. */
  readonly reading: number;
  /** The passage's offsets in that reading's normalised text (the message itself when it is ASCII). */
  readonly start: number;
  readonly end: number;
  readonly passage: string;
  /**
   * Whether the passage counts as said to the bot: not when the rule matched it only through what
   * it says of someone else (rules/mentions.ts); inside a document about a job, it must also turn
   * to the bot (rules/addressee.ts).
   */
  readonly toTheBot: boolean;
  /** 1 - P(benign) of the passage in its context (0 when it is not said to the bot: not reviewed). */
  readonly review: number;
  readonly overruled: boolean;
}

export interface Explanation {
  readonly verdict: MessageVerdict;
  readonly rule: RuleFinding | null;
}

/** Characters of the text on each side of a passage that the scorer reads with it. */
const CONTEXT_CHARS = 0;
/**
 * Characters on each side of a passage read with it for mentions: in a job document a quoted
 * example may open or close outside it; elsewhere a few words finish a mention cut at its edge.
 */
const MENTION_CONTEXT_CHARS = { jobDocument: 320, other: 40 };
/** Characters on each side of a passage in which it may turn to the bot ("Assistant: ..."). */
const ADDRESS_CHARS = 60;

/**
 * A check that reads with its own reader (whose memory it reuses from message to message) and scores
 * with the given model. Create one per program, or per worker, and keep it.
 */
export function createMessageCheck(model: ScorerModel): MessageCheck {
  const reader = new MessageReader();
  const scorer = new LearnedScorer(model);
  return {
    checkVisitorMessage: (message) => explainWith(reader, scorer, message).verdict,
    explainVisitorMessage: (message) => explainWith(reader, scorer, message),
  };
}

/** The check, given its reader and scorer. */
export function checkWith(reader: MessageReader, scorer: LearnedScorer, message: string): MessageVerdict {
  return explainWith(reader, scorer, message).verdict;
}

export function explainWith(reader: MessageReader, scorer: LearnedScorer, message: string): Explanation {
  const reading = reader.read(message);
  const rule = reviewRuleMatch(reading, reader, scorer);
  if (rule !== null && !rule.overruled) return { verdict: { blocked: true, reason: reasonOf(rule, message, reading) }, rule };
  return { verdict: modelVerdict(reading, scorer).verdict, rule };
}

/** The reason a standing rule match blocks for: a prompt injection when the order rides in pasted content. */
export function reasonOf(finding: RuleFinding, message: string, reading: MessageReading): BlockReason {
  // The message as it came and as normalised have the same plain form, unless the normaliser revealed Unicode tags.
  const plain = message.includes(TAG_LEAD_SURROGATE) ? plainText(message) : reading.plain();
  return hidesOrderInPastedContent(message, plain) ? 'prompt_injection' : finding.reason;
}

/**
 * The first passage a rule matched that the scorer does not overrule, or, when it overrules every
 * one, the last it reviewed; null when no rule matched.
 */
export function reviewRuleMatch(reading: MessageReading, reader: MessageReader, scorer: LearnedScorer): RuleFinding | null {
  let overruled: RuleFinding | null = null;
  for (const finding of ruleFindings(reading, reader, scorer)) {
    if (!finding.overruled) return finding;
    overruled = finding;
  }
  return overruled;
}

/**
 * Each passage a rule matched, reason by reason and reading by reading, with the scorer's review.
 * A passage the rule needed the whole text for, or that gives a classic order to drop the bot's
 * instructions outside quotation marks (rules/addressee.ts), is never overruled by the scorer. With
 * `addressee` false, every passage counts as said to the bot: the scorer's review alone, which
 * is what its veto is earned on.
 */
export function* ruleFindings(reading: MessageReading, reader: MessageReader, scorer: LearnedScorer, addressee = true): Generator<RuleFinding> {
  let jobDocument: boolean | undefined = addressee ? undefined : false;
  let unquotedGloss: string | undefined;
  // A reading's own words without the quotations it cites, kept for the reading they were taken of.
  let unquoted: { reading: number; text: string } | undefined;
  for (const match of ruleMatches(reading)) {
    const text = reading.text(match.reading) as string;
    for (const { start, end, located } of passagesWhere(text, RULES[match.reason], reader)) {
      jobDocument ??= reading.isJobDocument();
      const passage = text.slice(start, end);
      const around = (of: string) => of.slice(Math.max(0, start - ADDRESS_CHARS), end + ADDRESS_CHARS);
      const turnsToTheBot = () => {
        if (match.reading !== reading.glossed) {
          if (unquoted?.reading !== match.reading) unquoted = { reading: match.reading, text: withoutCitedQuotations(text) };
          return speaksToTheBot(around(unquoted.text));
        }
        unquotedGloss ??= withoutQuotations(text);
        return glossSpeaksToTheBot(around(text), around(unquotedGloss));
      };
      const toTheBot =
        (!jobDocument || turnsToTheBot()) &&
        !(addressee && located && onlyMentionsMatch(text, start, end, jobDocument, RULES[match.reason], reader));
      const review = !toTheBot ? 0 : located && !givesClassicOrder(passage) ? scorer.score([withLinksAsWords(text.slice(Math.max(0, start - CONTEXT_CHARS), end + CONTEXT_CHARS))]).attack : 1;
      yield { ...match, start, end, passage, toTheBot, review, overruled: review < scorer.veto };
    }
  }
}

/**
 * Whether the rule matched the passage only through what it says of someone other than the bot
 * (rules/mentions.ts): with those mentions blanked out (read with some text on each side), the rule
 * no longer matches the passage.
 */
function onlyMentionsMatch(
  text: string,
  start: number,
  end: number,
  jobDocument: boolean,
  rule: (scan: Scan) => boolean,
  reader: MessageReader,
): boolean {
  const context = jobDocument ? MENTION_CONTEXT_CHARS.jobDocument : MENTION_CONTEXT_CHARS.other;
  const from = Math.max(0, start - context);
  const around = text.slice(from, end + context);
  const rest = withoutMentions(around, jobDocument);
  return rest !== around && !rule(reader.scanOf(rest.slice(start - from, end - from)));
}

/**
 * What the scorer reads of a message, at check time and in training. A document about a job is read
 * without the attacks it quotes as examples (a window of quoted attacks reads like an attack), and
 * without its English gloss: glossed word by word, a job description in another script is a list of
 * "system prompt", "password", "ignore" and "act as" with the sentence around them lost, and the
 * scorer cannot tell it from an attack (the rules still read the gloss). Another message is read
 * without the frames of a rehearsal the sender runs (rules/mentions.ts). Links are read as words
 * (text/links.ts).
 */
export function scoredTexts(reading: MessageReading): string[] {
  const all = reading.texts();
  const jobDocument = reading.isJobDocument();
  const texts = reading.glossed >= 0 && jobDocument ? all.filter((_, i) => i !== reading.glossed) : all;
  return texts.map((text, i) => withLinksAsWords(i > 0 ? text : jobDocument ? withoutQuotedExamples(text) : withoutSenderFrames(text)));
}

/** The scorer's verdict on a message (what scoredTexts gives of it), and the score it came from. */
export function modelVerdict(reading: MessageReading, scorer: LearnedScorer): { verdict: MessageVerdict; score: WindowScores } {
  const score = scorer.score(scoredTexts(reading));
  return { verdict: score.attack >= scorer.threshold ? { blocked: true, reason: score.reason } : { blocked: false }, score };
}
