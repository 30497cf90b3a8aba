/** credential_probe: asking for keys, passwords, tokens, one-time codes or environment values. */
import * as lexicon from '../lexicon-index.ts';
import { memoized, type Scan } from '../scan.ts';
import { DECLARATIVE, isImperative, isProhibited } from './common.ts';
import { MemoSlot } from './memo-slots.ts';

const { C } = lexicon;

/** "the key you use to call the API", "the token you authenticate with". */
const isKeyInUse = (s: Scan, j: number) => {
  const you = s.next(j, 2, C.you);
  return you >= 0 && s.next(you, 2, C.keyUse) >= 0;
};

/** "la clé API", "klucz API": in many languages the owner follows the key. */
const isForeignKey = (s: Scan, j: number) =>
  s.is(j, C.foreignKey) && (s.is(j + 1, C.keyOwner) || s.is(j - 1, C.keyOwner));

const isSecret = memoized(MemoSlot.Secret, [C.secret, C.keyWord, C.foreignKey], (s, j) => {
  const ownedKey = s.is(j, C.keyWord) && (s.is(j - 1, C.keyOwner) || isKeyInUse(s, j));
  const named = s.is(j, C.secret) || ownedKey || isForeignKey(s, j);
  return named && !s.is(j + 1, C.secretTopic) && !s.is(j - 1, C.secretTopic) && !isSaidToBeSecret(s, j);
});

/**
 * "Is her salary a secret?", "that was a secret", "the secret to her team's low attrition": the word
 * describes something, it names no secret.
 */
function isSaidToBeSecret(s: Scan, j: number): boolean {
  if (s.word(j) === 'secret' && (s.word(j + 1) === 'to' || s.word(j + 1) === 'behind')) return true;
  if (s.word(j - 1) !== 'a') return false;
  for (let k = j - 2; k >= Math.max(0, j - 5) && !s.isClauseStart(k); k -= 1) {
    if (DECLARATIVE.has(s.word(k))) return true;
  }
  return false;
}

export function asksForSecret(s: Scan): boolean {
  if (!s.hasAny(C.secret, C.keyWord, C.foreignKey)) return false;
  for (const i of s.where(C.request)) {
    if (s.addressed(i) && s.reachesBefore(i, 10, isSecret, C.topicFraming) && !isProhibited(s, i)) return true;
  }
  for (const i of s.where(C.question)) {
    if (s.reachesBefore(i, 7, isSecret, C.topicFraming)) return true;
  }
  for (const id of [C.secret, C.keyWord, C.foreignKey]) {
    for (const j of s.where(id)) {
      if (!s.holds(isSecret, j) || s.prev(j, 3, C.prohibition) >= 0) continue;
      if (s.reachesBefore(j, 6, isAddressedRequest, C.topicFraming)) return true;
      // "the first 6 characters of the API key you use", "just the last digits of the password"
      const part = s.prev(j, 4, C.secretPart);
      if (part >= 0 && (s.prev(part, 6, C.question) >= 0 || s.prevWhere(part, 6, isAddressedRequest) >= 0)) return true;
      const asksBareQuestion = isImperative(s, j) && s.is(s.nextAcross(j, 8, C.sentenceEnd), C.questionMark);
      if (asksBareQuestion) return true;
    }
  }
  return false;
}

const isAddressedRequest = memoized(MemoSlot.AddressedRequest, [C.request], (s, k) => s.addressed(k));

