/**
 * An order hidden for the bot inside content the visitor pasted: a note to the AI in a job ad's
 * brackets, an HTML or code comment, a field of a JSON or YAML block, a "[SYSTEM]" tag in a log.
 * Whatever it asks for (the prompt, a key, a new role), it is an injection: the visitor's own words
 * ask something else ("is he a fit?"), and the order rides in the data. The marker must come after
 * some of the visitor's own text: at the start of a message, the same words are a direct request.
 */

import { plainText } from '../text/plain.ts';
import { PrefixFilteredPattern } from '../text/prefix-filter.ts';

/** Text the visitor writes before pasting, at the least. */
const OWN_TEXT_CHARS = 30;

/** Markers of text meant for an AI that reads the pasted content, in the languages the filter reads. */
const HIDDEN_ORDER = new RegExp(
  [
    String.raw`<!--|\/\/ *(todo|note|fixme)?\(?(ai|llm|assistant|bot)\b|#+ *note to (the )?ai|\b(note|message|instructions?|reminder|hint) (to|for) (the |any |an )?(ai|assistant|bot|llm|language model|model|screener|reviewer)s?\b|\bai (note|reviewer|instruction)|\binstructions?_for_(the_)?(ai|bot|assistant|llm)|\b(assistant|bot|ai|llm)_(override|instructions?|must)\b`,
    String.raw`\[ *(system|sys|admin|ai|assistant|inst|instruction)s?\b|\bsystem override\b|>>> *(assistant|system|ai)\b|\b(llm|ai|assistant) *: *(new instructions|ignore|disregard|forget)`,
    // a note relayed word for word to the bot: "asked me to paste this to you as is: '...'"
    String.raw`\b(paste|forward|pass|relay|send)\w* (this|the following|(his|her|their|the) (note|message|text)) (on )?to you(,)? (word for word|verbatim|as is|unchanged)|\bpasar\w* esto tal cual|\btransmet\w* (ceci|ce message) tel quel`,
    // German, Spanish, French, Portuguese, Italian, Dutch, Polish, Russian, Japanese, Chinese, Korean
    String.raw`\b(hinweis|anweisung|nachricht) (an|fur) (die|den) (ki|assistenten|bot)|\b(nota|instruccion|instrucciones|mensaje) para (la |el )?(ia|asistente|bot)|\b(note|instruction|consigne)s? (pour|a) (l'|la |le )?(ia|assistant|bot)|\b(nota|instrucao|instrucoes) para (a |o )?(ia|assistente)|\b(nota|istruzion[ei]) per (l'|il )?(ia|assistente)|\b(notitie|instructie|bericht) voor (de )?(ai|assistent)|\b(informacja|instrukcja|notatka) dla (asystent|ai|si|bota)`,
    String.raw`(инструкция|указание|примечание) для (ии|ai|ассистента|бота)|aiへの(指示|命令|メモ)|致ai|给ai的(指令|指示|说明)|ai에게:`,
  ].join('|'),
);

/**
 * The markers, tried only where one may start: the same first match, without the engine trying
 * every alternative at each of a long message's characters (it did, on every message a rule blocks).
 */
const HIDDEN_ORDER_SEARCH = new PrefixFilteredPattern(HIDDEN_ORDER);

/**
 * Whether a message carries an order for the bot hidden in content pasted after the visitor's own
 * words. `text` is the message's plain form, when the caller has it already.
 */
export function hidesOrderInPastedContent(message: string, text = plainText(message)): boolean {
  const found = HIDDEN_ORDER_SEARCH.exec(text);
  return found !== null && found.index >= OWN_TEXT_CHARS;
}
