/**
 * npm run collect:readme-prose — writes eval/training/readme-prose.jsonl: sentences of plain prose
 * from the READMEs of the packages installed in node_modules whose licence is permissive (MIT, ISC,
 * Apache-2.0, BSD, 0BSD, CC0, Unlicense, BlueOak), each with its package, version and licence.
 *
 * They are benign text for the learned scorer: ordinary technical English in which "ignore",
 * "override", "token", "key", "password", "instructions" and "mode" mean what they mean in
 * software documentation, not in an attack on a chat bot. The file is committed, so that training
 * does not depend on what happens to be installed; rerun this only to refresh it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PERMISSIVE = /^(MIT|ISC|Apache-2\.0|BSD-2-Clause|BSD-3-Clause|0BSD|BlueOak-1\.0\.0|Unlicense|CC0-1\.0)$/;
const MAX_PER_PACKAGE = 40;
const MAX_ROWS = 6000;

const root = fileURLToPath(new URL('../../../node_modules/', import.meta.url));
const out = fileURLToPath(new URL('../eval/training/readme-prose.jsonl', import.meta.url));

function packageDirs(): string[] {
  const dirs: string[] = [];
  for (const entry of readdirSync(root).sort()) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(join(root, entry)).sort()) dirs.push(join(root, entry, scoped));
    } else {
      dirs.push(join(root, entry));
    }
  }
  return dirs;
}

/** Sentences of prose: no code, no tables, no links-only lines, 6 to 60 words. */
function proseSentences(markdown: string): string[] {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*(#|\||>|-{3,}|={3,}|\[!\[|!\[|\s{4})/.test(line))
    .join(' ')
    .replace(/`[^`]*`/g, 'it')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[*_]{1,3}/g, '')
    .replace(/\s+/g, ' ');
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => {
      const words = sentence.split(' ').length;
      return words >= 6 && words <= 60 && /^[A-Z]/.test(sentence) && /[.!?]$/.test(sentence) && !/[{};=<>$]/.test(sentence);
    });
}

const rows: string[] = [];
const seen = new Set<string>();
for (const dir of packageDirs()) {
  let meta: { name?: string; version?: string; license?: unknown };
  try {
    meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof meta;
  } catch {
    continue;
  }
  if (typeof meta.license !== 'string' || !PERMISSIVE.test(meta.license)) continue;
  const readme = readdirSync(dir).find((file) => /^readme(\.md|\.markdown)?$/i.test(file));
  if (readme === undefined) continue;
  let taken = 0;
  for (const sentence of proseSentences(readFileSync(join(dir, readme), 'utf8'))) {
    if (taken >= MAX_PER_PACKAGE || rows.length >= MAX_ROWS) break;
    if (seen.has(sentence)) continue;
    seen.add(sentence);
    taken += 1;
    rows.push(JSON.stringify({ package: `${meta.name}@${meta.version}`, license: meta.license, text: sentence }));
  }
}
writeFileSync(out, rows.join('\n') + '\n');
console.log(`eval/training/readme-prose.jsonl: ${rows.length} sentences`);
