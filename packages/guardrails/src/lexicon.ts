/**
 * The message rules' lexicon, kept as data in lexicon.json.
 *
 * The filter works on intent, not on memorised strings: words are grouped into classes
 * (request verbs, secrets, the bot's own instructions, "earlier", persona switches, ...) and each
 * rule looks for a verb and its target within a few words of each other. Multi-word entries are
 * fused into one token before matching, so "api key" or "from now on" count as one word.
 * All entries are written lower case, without accents, the way tokenize reads words. The order
 * of the classes is their ids.
 *
 * Glosses: languages whose words tokenize cannot read (no Latin letters, or no spaces between
 * words) give the stems of the same word classes, each glossed as an English word the rules
 * know. A key matches the start of a word ("игнорир" also reads "игнорируй"), or with "$" the
 * whole word; a gloss with "!" is a verb, moved to the front of its clause, since these
 * languages often put the verb last. They are grouped by language in the file.
 */
import data from './lexicon.json' with { type: 'json' };

export const WORD_CLASSES = data.wordClasses;
export type WordClass = keyof typeof WORD_CLASSES;

export const GLOSSES: Record<string, string> = Object.assign({}, ...Object.values(data.glosses));

/** Words whose misspellings still count ("pasword", "ignroe", "instrucitons"); see readTypo. */
export const TYPO_TARGETS: readonly string[] = data.typoTargets;

/** Words the rules compare by spelling, besides those in WORD_CLASSES; "qu" is the French elision "qu'". */
export const SPELLED_WORDS: readonly string[] = data.spelledWords;
