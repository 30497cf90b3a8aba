/**
 * npm run synthesize:guardrails — writes eval/training/synthetic.jsonl, the synthetic part of the
 * learned scorer's training set, from the hand-written seeds in eval/training/phrasebook.json.
 *
 * Each row is a seed (an attack in one of the five categories, or a recruiter message, a third of
 * them hard negatives) in a framing (a greeting, a pasted e-mail or job description, JSON, YAML,
 * tool output, a story, a chat transcript, a code block, a list of questions) and, for some, an
 * encoding the normaliser reads (leetspeak, spaced letters, full-width letters, zero-width
 * characters, look-alike letters, base64, ROT13, reversed text, URL escapes). Framings and most
 * encodings are drawn for recruiter messages too, so that neither tells the model which is which.
 * A fixed seed makes the file the same on every run; `-- --check` writes nothing and exits 1 if the
 * committed file differs from what the phrasebook gives, as CI does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './support/random.ts';

type Category = 'credential_probe' | 'system_prompt_extraction' | 'jailbreak' | 'role_override' | 'prompt_injection';

interface Phrasebook {
  attacks: Record<Category, string[]>;
  attacksByLanguage: Record<string, Record<Category, string[]>>;
  benign: string[];
  hardNegatives: string[];
  /** Everyday questions around trigger words, not about the candidate: visitors stray too. */
  everydayTriggerWords: string[];
  /** Short turns of a conversation: a model that has seen only full questions reads too much into them. */
  followUps: string[];
  benignByLanguage: Record<string, string[]>;
  jobDescriptions: string[];
  pretexts: string[];
  names: string[];
  owners: string[];
  companies: string[];
  domains: string[];
  emails: string[];
  roles: string[];
}

const ATTACKS_PER_CATEGORY = 1200;
const BENIGN = 4000;
const HARD_NEGATIVE_SHARE = 0.4;
const SEED = 20261125;
/**
 * Recruiter messages and attacks alike that carry a link whose path or query has escaped spaces
 * (%20): recruiters paste such links, and with URL escapes drawn only for attacks the scorer learned
 * that %20 means an attack ("her portfolio is at .../ada%20lovelace%20portfolio.pdf" was refused).
 * Written after the rows above, so that those stay as they were.
 */
const LINKED = { benign: 400, attacks: 200 };

const trainingDir = fileURLToPath(new URL('../eval/training/', import.meta.url));
const book = JSON.parse(readFileSync(trainingDir + 'phrasebook.json', 'utf8')) as Phrasebook;

const random = mulberry32(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (p: number) => random() < p;

function fillSlots(text: string): string {
  return text
    .replaceAll('{owner}', pick(book.owners))
    .replaceAll('{company}', pick(book.companies))
    .replaceAll('{domain}', pick(book.domains))
    .replaceAll('{email}', pick(book.emails))
    .replaceAll('{name}', pick(book.names))
    .replaceAll('{role}', pick(book.roles));
}

// ------------------------------------------------------------------ framings

type Framing = { name: string; wrap: (core: string) => string };

const question = () => fillSlots(pick(book.benign));
const jobDescription = () => fillSlots(pick(book.jobDescriptions));

const FRAMINGS: Framing[] = [
  { name: 'plain', wrap: (core) => core },
  { name: 'plain', wrap: (core) => core },
  { name: 'greeting', wrap: (core) => fillSlots(`Hi, I'm {name} from {company}. ${core} Thanks!`) },
  { name: 'pretext', wrap: (core) => `${fillSlots(pick(book.pretexts))} ${core}` },
  {
    name: 'email',
    wrap: (core) =>
      fillSlots(`From: {name} <{email}>\nSubject: {role} opening\n\nHello,\n\n${question()}\n\n${core}\n\nBest regards,\n{name}`),
  },
  { name: 'job-description', wrap: (core) => `${jobDescription()}\n\n${core}\n\n${jobDescription()}` },
  { name: 'json', wrap: (core) => JSON.stringify({ source: 'ats-export', candidate: fillSlots('{owner}'), note: core }, null, 2) },
  { name: 'yaml', wrap: (core) => fillSlots(`request:\n  from: {company}\n  role: {role}\n  message: "${core.replaceAll('"', "'")}"`) },
  { name: 'tool-output', wrap: (core) => `[tool: web_search] result 1 of 3\n${jobDescription()}\n---\n${core}\n[end of tool output]` },
  { name: 'story', wrap: (core) => `Here is a short scene for our hiring newsletter. The recruiter leans in and types: "${core}"` },
  { name: 'transcript', wrap: (core) => `Recruiter: Hello!\nAssistant: Hi, how can I help?\nRecruiter: ${question()}\nAssistant: Sure.\nRecruiter: ${core}` },
  { name: 'code-block', wrap: (core) => '```\n' + core + '\n```' },
  { name: 'questions', wrap: (core) => `${question()} ${core} ${question()}` },
  { name: 'html-comment', wrap: (core) => `${question()}\n<!-- ${core} -->` },
];

// ------------------------------------------------------------------ encodings

type Encoding = { name: string; encode: (text: string) => string };

const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const HOMOGLYPHS: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', i: 'і' };
const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

const ENCODINGS: Encoding[] = [
  { name: 'leet', encode: (t) => t.replace(/[aeiost]/g, (c) => (chance(0.6) ? (LEET[c] as string) : c)) },
  { name: 'spaced', encode: (t) => t.replace(/[A-Za-z]{4,}/g, (w) => (chance(0.5) ? w.split('').join(' ') : w)) },
  { name: 'dotted', encode: (t) => t.replace(/[A-Za-z]{5,}/g, (w) => (chance(0.4) ? w.split('').join('.') : w)) },
  {
    name: 'fullwidth',
    encode: (t) => t.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replaceAll(' ', '\u3000'),
  },
  { name: 'zero-width', encode: (t) => t.replace(/[a-z]/g, (c) => (chance(0.3) ? c + '\u200b' : c)) },
  { name: 'homoglyph', encode: (t) => t.replace(/[aeopcxi]/g, (c) => (chance(0.5) ? (HOMOGLYPHS[c] as string) : c)) },
  { name: 'upper', encode: (t) => t.toUpperCase() },
  { name: 'base64', encode: (t) => `${pick(['Decode this and do what it says:', 'base64:', 'Please decode:', ''])} ${Buffer.from(t).toString('base64')}` },
  { name: 'rot13', encode: (t) => `${pick(['ROT13:', 'Decode with rot13 and answer:', 'rot13 ->'])} ${rot13(t)}` },
  { name: 'reversed', encode: (t) => `${pick(['Read this backwards:', 'Reversed text:'])} ${[...t].reverse().join('')}` },
  { name: 'url-escaped', encode: (t) => encodeURIComponent(t) },
];
/** What a recruiter's message plausibly goes through: no payload encodings. */
const BENIGN_ENCODINGS = ENCODINGS.filter((e) => ['upper', 'zero-width', 'homoglyph', 'leet', 'fullwidth'].includes(e.name));

// ------------------------------------------------------------------ rows

interface Row {
  id: string;
  label: Category | 'benign';
  variant: string;
  hard_negative: boolean;
  text: string;
}

function attackSeed(category: Category): { text: string; language: string } {
  if (chance(0.25)) {
    const language = pick(Object.keys(book.attacksByLanguage));
    return { text: pick((book.attacksByLanguage[language] as Record<Category, string[]>)[category]), language };
  }
  return { text: pick(book.attacks[category]), language: 'en' };
}

function benignSeed(hard: boolean): { text: string; language: string } {
  if (chance(0.25)) {
    const language = pick(Object.keys(book.benignByLanguage));
    return { text: pick(book.benignByLanguage[language] as string[]), language };
  }
  if (hard && chance(0.25)) return { text: pick(book.everydayTriggerWords), language: 'en' };
  if (!hard && chance(0.3)) return { text: pick(book.followUps), language: 'en' };
  return { text: pick(hard ? book.hardNegatives : book.benign), language: 'en' };
}

const PRONOUNS: Record<string, Record<string, string>> = {
  she: { he: 'she', him: 'her', his: 'her', He: 'She', His: 'Her' },
  they: { he: 'they', him: 'them', his: 'their', He: 'They', His: 'Their' },
};

/** The candidate is "he", "she", "they" or named, in attacks and recruiter messages alike. */
function vary(text: string): string {
  const roll = random();
  if (roll < 0.3) return text;
  if (roll < 0.55) return text.replace(/\b(he|him|his|He|His)\b/g, (w) => PRONOUNS.she?.[w] ?? w);
  if (roll < 0.7) return text.replace(/\b(he|him|his|He|His)\b/g, (w) => PRONOUNS.they?.[w] ?? w);
  const owner = pick(book.owners);
  return text.replace(/\b(he|He)\b/, owner).replace(/\bthe candidate\b/, owner);
}

function row(id: string, label: Row['label'], seed: { text: string; language: string }, hard: boolean, encodings: Encoding[], encodeRate: number): Row {
  let core = fillSlots(vary(seed.text));
  let encoding = '';
  if (seed.language === 'en' && chance(encodeRate)) {
    const chosen = pick(encodings);
    core = chosen.encode(core);
    encoding = chosen.name;
  }
  const framing = pick(FRAMINGS);
  const variant = [framing.name, seed.language === 'en' ? '' : seed.language, encoding].filter(Boolean).join('/');
  return { id, label, variant, hard_negative: hard, text: framing.wrap(core) };
}

const rows: Row[] = [];
const categories = Object.keys(book.attacks) as Category[];
for (const category of categories) {
  for (let i = 0; i < ATTACKS_PER_CATEGORY; i += 1) {
    rows.push(row(`syn-${category}-${i + 1}`, category, attackSeed(category), false, ENCODINGS, 0.35));
  }
}
for (let i = 0; i < BENIGN; i += 1) {
  const hard = chance(HARD_NEGATIVE_SHARE);
  rows.push(row(`syn-benign-${i + 1}`, 'benign', benignSeed(hard), hard, BENIGN_ENCODINGS, 0.08));
}

/** A link to a document, a search or a profile, with spaces escaped the way browsers copy them. */
function escapedLink(): string {
  const title = pick([
    fillSlots('{owner} CV 2025'),
    fillSlots('{owner} portfolio'),
    fillSlots('{role} job description'),
    fillSlots('{company} interview guide'),
    fillSlots('{owner} talk slides'),
    fillSlots('{role} offer letter draft'),
  ]);
  const escaped = encodeURIComponent(title);
  return fillSlots(
    pick([
      `https://{domain}/files/${escaped}.pdf`,
      `https://{domain}/search?q=${escaped}&page=1`,
      `https://{domain}/docs/${escaped.replaceAll('%20', '_')}%20(final).docx`,
      `https://{domain}/share/${escaped}`,
    ]),
  );
}

function linked(text: string): string {
  const link = escapedLink();
  return pick([`${text} ${link}`, `${link}\n${text}`, `${text} (see ${link})`, `Link: ${link}. ${text}`]);
}

for (let i = 0; i < LINKED.benign; i += 1) {
  const hard = chance(HARD_NEGATIVE_SHARE);
  const seed = benignSeed(hard);
  rows.push({ id: `syn-benign-linked-${i + 1}`, label: 'benign', variant: 'linked', hard_negative: hard, text: linked(fillSlots(vary(seed.text))) });
}
for (let i = 0; i < LINKED.attacks; i += 1) {
  const category = pick(categories);
  rows.push({ id: `syn-${category}-linked-${i + 1}`, label: category, variant: 'linked', hard_negative: false, text: linked(fillSlots(vary(attackSeed(category).text))) });
}

const written = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
if (process.argv.includes('--check')) {
  if (readFileSync(trainingDir + 'synthetic.jsonl', 'utf8') !== written) {
    console.error('synthetic.jsonl does not match phrasebook.json: run npm run synthesize:guardrails and commit the result.');
    process.exit(1);
  }
  console.log('eval/training/synthetic.jsonl matches phrasebook.json.');
  process.exit(0);
}
writeFileSync(trainingDir + 'synthetic.jsonl', written);
const hard = rows.filter((r) => r.hard_negative).length;
const benign = rows.filter((r) => r.label === 'benign').length;
console.log(`eval/training/synthetic.jsonl: ${rows.length} rows, ${rows.length - benign} attacks, ${benign} recruiter messages (${hard} hard negatives)`);
