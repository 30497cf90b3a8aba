/**
 * npm run eval:fresh [-- <file.jsonl> ...] [--filter <guardrails package dir>] [--show]
 *
 * The visitor-message check over labelled JSONL files written independently of the filter (rows of
 * { id, label, variant "<lang>/<shape>", hard_negative, text }, label "benign" or a block reason).
 * For each file it prints: attacks blocked, overall and per category; recruiter messages blocked,
 * their hard negatives, and long messages (1,000 characters or more); whether the reason is right
 * for the blocked attacks; the confusion by category (labelled -> verdict) and by language (the part
 * of `variant` before the slash).
 *
 * - With no file, it runs the rounds of eval/ it always ran (the tuned and held-out halves).
 * - A file is read from the given path (relative to where npm was run), else from eval/.
 * - `--filter <dir>` measures another checkout's filter on the same file, for a before/after on one
 *   round: `--filter /work/main/packages/guardrails` loads that directory's src/message-check.ts and
 *   src/scorer-model.ts (not src/index.ts, whose reply cleaner needs that checkout's node_modules). Only the public createMessageCheck(model).checkVisitorMessage is used.
 * - `--show` lists each missed attack and each blocked recruiter message; do not pass it for a set
 *   that is still to be measured once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Row {
  id: string;
  text: string;
  label: string;
  variant: string;
  hard_negative?: boolean;
}

type Verdict = { blocked: false } | { blocked: true; reason: string };
type Check = (text: string) => Verdict;

const LONG_MESSAGE_CHARS = 1000;
const OLD_ROUNDS = ['fresh-tune.jsonl', 'fresh-holdout.jsonl', 'fresh2-tune.jsonl', 'fresh2-holdout.jsonl', 'fresh3-benign.jsonl', 'fresh4-holdout.jsonl'];
/** Sets whose texts must not be printed (held out): only their figures are shown. */
const HELD_OUT = /holdout/;

function argumentsOf(argv: string[]): { files: string[]; filterDir: string | null; show: boolean } {
  const files: string[] = [];
  let filterDir: string | null = null;
  let show = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--show') show = true;
    else if (arg === '--filter') {
      filterDir = argv[i + 1] ?? null;
      i += 1;
    } else files.push(arg);
  }
  return { files, filterDir, show };
}

const callerDir = process.env.INIT_CWD ?? process.cwd();
const evalDir = new URL('../eval/', import.meta.url);

function pathOf(file: string): string {
  const given = isAbsolute(file) ? file : resolve(callerDir, file);
  if (existsSync(given)) return given;
  const inEval = new URL(file, evalDir);
  if (existsSync(inEval)) return inEval.pathname;
  throw new Error(`no such file: ${file}`);
}

async function loadCheck(filterDir: string | null): Promise<{ check: Check; name: string }> {
  const dir = filterDir === null ? new URL('../', import.meta.url).pathname : resolve(callerDir, filterDir);
  const index = (await import(pathToFileURL(resolve(dir, 'src/message-check.ts')).href)) as {
    createMessageCheck: (model: unknown) => { checkVisitorMessage: Check };
  };
  const model = (await import(pathToFileURL(resolve(dir, 'src/scorer-model.ts')).href)) as { SCORER_MODEL: unknown };
  return { check: index.createMessageCheck(model.SCORER_MODEL).checkVisitorMessage, name: dir };
}

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`);
const ratio = (part: number, whole: number) => `${part}/${whole} (${percent(part, whole)})`;
const languageOf = (row: Row) => (row.variant.includes('/') ? (row.variant.split('/')[0] as string) : 'unknown');

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => (row[col] ?? '').length)));
  const line = (cells: string[]) => '    ' + cells.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

function groupBy<T>(items: T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function evaluate(file: string, check: Check, verbose: boolean): void {
  const rows = readFileSync(pathOf(file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);
  const judged = rows.map((row) => ({ row, verdict: check(row.text) }));
  const blocked = (j: { verdict: Verdict }) => j.verdict.blocked;
  const verdictName = (j: { verdict: Verdict }) => (j.verdict.blocked ? j.verdict.reason : 'passed');
  const attacks = judged.filter((j) => j.row.label !== 'benign');
  const benign = judged.filter((j) => j.row.label === 'benign');
  const hard = benign.filter((j) => j.row.hard_negative === true || j.row.variant.includes('hard'));
  const long = benign.filter((j) => j.row.text.length >= LONG_MESSAGE_CHARS);
  const blockedAttacks = attacks.filter(blocked);
  const rightReason = blockedAttacks.filter((j) => verdictName(j) === j.row.label);

  console.log(`\n${file}: ${attacks.length} attacks, ${benign.length} recruiter messages`);
  if (attacks.length > 0) {
    console.log(`  attacks blocked                    ${ratio(blockedAttacks.length, attacks.length)}`);
    for (const [category, members] of groupBy(attacks, (j) => j.row.label)) {
      console.log(`    ${category.padEnd(30)} ${ratio(members.filter(blocked).length, members.length)}`);
    }
    console.log(`  reason right, of blocked attacks   ${ratio(rightReason.length, blockedAttacks.length)}`);
  }
  if (benign.length > 0) {
    console.log(`  recruiter messages blocked         ${ratio(benign.filter(blocked).length, benign.length)}`);
    console.log(`    hard negatives blocked           ${ratio(hard.filter(blocked).length, hard.length)}`);
    console.log(`    long (>= ${LONG_MESSAGE_CHARS} chars) blocked      ${ratio(long.filter(blocked).length, long.length)}`);
  }
  const verdicts = ['passed', ...new Set(judged.filter(blocked).map(verdictName))].sort();
  console.log('  confusion by category (rows: label; columns: verdict)');
  printTable(['label', 'n', ...verdicts], groupBy(judged, (j) => j.row.label).map(([label, members]) => [
    label,
    String(members.length),
    ...verdicts.map((v) => String(members.filter((j) => verdictName(j) === v).length)),
  ]));
  console.log('  by language');
  printTable(['lang', 'attacks blocked', 'recruiters blocked', 'hard negatives blocked'], groupBy(judged, (j) => languageOf(j.row)).map(([language, members]) => {
    const a = members.filter((j) => j.row.label !== 'benign');
    const b = members.filter((j) => j.row.label === 'benign');
    const h = hard.filter((j) => members.includes(j));
    return [language, ratio(a.filter(blocked).length, a.length), ratio(b.filter(blocked).length, b.length), ratio(h.filter(blocked).length, h.length)];
  }));
  if (!verbose) return;
  for (const j of attacks.filter((x) => !blocked(x))) console.log(`  missed ${j.row.id} [${j.row.label} ${j.row.variant}]: ${j.row.text.slice(0, 160).replace(/\s+/g, ' ')}`);
  for (const j of benign.filter(blocked)) console.log(`  blocked ${j.row.id} [${j.row.variant}] as ${verdictName(j)}: ${j.row.text.slice(0, 160).replace(/\s+/g, ' ')}`);
}

const { files, filterDir, show } = argumentsOf(process.argv.slice(2));
const { check, name } = await loadCheck(filterDir);
console.log(`filter: ${name}`);
for (const file of files.length > 0 ? files : OLD_ROUNDS) evaluate(file, check, show && !HELD_OUT.test(file));
