import { readFileSync } from 'node:fs';
import { createMessageCheck } from '../src/index.ts';
import { SCORER_MODEL } from '../src/scorer-model.ts';

// npm run eval:fresh [-- --show] — the input filter over eval/fresh*-*.jsonl, sets written
// independently of the filter's code, in rounds: the *-tune sets (rules were tuned on them)
// and the *-holdout sets (never looked at while tuning; keep it that way: do not read their
// texts, and do not pass --show for them). Prints recall per label, false positives, and the
// variants with misses. fresh3-benign holds only recruiter messages that use attack words innocently.

interface Row {
  id: string;
  text: string;
  label: string;
  variant: string;
}

const show = process.argv.includes('--show');
const { checkVisitorMessage } = createMessageCheck(SCORER_MODEL);

const evaluate = (file: string, verbose: boolean) => {
  const rows = readFileSync(new URL(`../eval/${file}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row);
  const byLabel = new Map<string, { total: number; blocked: number; rightReason: number }>();
  const byVariant = new Map<string, { total: number; blocked: number }>();
  const misses: string[] = [];
  const falsePositives: string[] = [];
  for (const row of rows) {
    const verdict = checkVisitorMessage(row.text);
    const label = byLabel.get(row.label) ?? { total: 0, blocked: 0, rightReason: 0 };
    label.total += 1;
    byLabel.set(row.label, label);
    if (row.label === 'benign') {
      if (verdict.blocked) {
        label.blocked += 1;
        falsePositives.push(`${row.id} [${row.variant}] as ${verdict.reason}`);
      }
      continue;
    }
    const variantName = row.variant.startsWith('multilingual-') ? 'multilingual' : row.variant;
    const variant = byVariant.get(variantName) ?? { total: 0, blocked: 0 };
    variant.total += 1;
    byVariant.set(variantName, variant);
    if (verdict.blocked) {
      label.blocked += 1;
      variant.blocked += 1;
      if (verdict.reason === row.label) label.rightReason += 1;
    } else {
      misses.push(`${row.id} [${row.label}/${row.variant}]: ${row.text.slice(0, 160).replace(/\s+/g, ' ')}`);
    }
  }
  const attacks = rows.filter((row) => row.label !== 'benign').length;
  const recall = attacks === 0 ? 'no attacks' : `attack recall ${(((attacks - misses.length) / attacks) * 100).toFixed(1)} %`;
  console.log(`\n${file}: ${recall} (${attacks - misses.length}/${attacks})`);
  for (const [name, label] of byLabel) {
    const rate = ((label.blocked / label.total) * 100).toFixed(1);
    const detail = name === 'benign' ? 'false positives' : `blocked, ${label.rightReason} with this reason`;
    console.log(`  ${name.padEnd(26)} ${label.blocked}/${label.total} (${rate} %) ${detail}`);
  }
  const missed = [...byVariant].filter(([, variant]) => variant.blocked < variant.total);
  console.log(`  variants with misses: ${missed.map(([name, v]) => `${name} ${v.blocked}/${v.total}`).join(', ') || 'none'}`);
  for (const line of falsePositives) console.log(`  false positive ${line}`);
  if (verbose) for (const line of misses) console.log(`  missed ${line}`);
};

evaluate('fresh-tune.jsonl', show);
evaluate('fresh-holdout.jsonl', false);
evaluate('fresh2-tune.jsonl', show);
evaluate('fresh2-holdout.jsonl', false);
// Recruiter messages only, hard negatives all: false positives were tuned on it.
evaluate('fresh3-benign.jsonl', show);
// A third round, held out from the start: measured once, after the last rule change of 2026-11-21.
evaluate('fresh4-holdout.jsonl', false);
