// What runs inside the parsing worker: which kind of document the bytes are, and its text.
// Every parser is a library (unpdf for PDF, mammoth for DOCX, fflate for zips, csv-parse for
// the LinkedIn CSVs); this file only checks limits and joins their output.
import { parse as parseCsv } from 'csv-parse/sync';
import { unzipSync, zipSync, type Unzipped } from 'fflate';
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import type { CvUnreadable, ReadCv } from '../../application/ports.ts';

export type ReadResult = { ok: true; value: ReadCv } | { ok: false; error: CvUnreadable };

/** A zip may hold at most this much once expanded, in at most this many entries. */
const ZIP_MAX_EXPANDED = 40 * 1024 * 1024;
const ZIP_MAX_ENTRIES = 2_000;
const LINKEDIN_FILES = ['Profile.csv', 'Positions.csv', 'Education.csv', 'Skills.csv'] as const;

const fail = (type: CvUnreadable['type']): ReadResult => ({ ok: false, error: { type } as CvUnreadable });

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
const isZip = (bytes: Uint8Array) => startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);

export const readDocument = async (bytes: Uint8Array, fileName: string | null, maxPages: number): Promise<ReadResult> => {
  if (isPdf(bytes)) return readPdf(bytes, maxPages);
  if (isZip(bytes)) return readZip(bytes);
  return readText(bytes, fileName);
};

// ---------------------------------------------------------------- PDF

/** Script actions a PDF can carry: a PDF that runs code is refused, not opened. */
const PDF_SCRIPT = /\/(JavaScript|JS|Launch|RichMedia)\b/;

const readPdf = async (bytes: Uint8Array, maxPages: number): Promise<ReadResult> => {
  if (PDF_SCRIPT.test(Buffer.from(bytes).toString('latin1'))) return fail('pdf_with_scripts');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    return fail((error as Error)?.name === 'PasswordException' ? 'encrypted_pdf' : 'unreadable_file');
  }
  try {
    if (pdf.numPages > maxPages) return { ok: false, error: { type: 'too_many_pages', pages: pdf.numPages, maxPages } };
    // Scripts hidden in compressed object streams are seen once the document is parsed.
    if (await pdf.getJSActions()) return fail('pdf_with_scripts');
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
    }
    const text = pages.join('\n\n');
    if (text.replace(/\s/g, '').length < 20) return fail('no_text_layer');
    return { ok: true, value: { format: 'pdf', text } };
  } finally {
    await pdf.destroy();
  }
};

// ---------------------------------------------------------------- zips: DOCX and the LinkedIn export

/** Expands a zip only when its entries, as declared, stay within the limits (fflate writes into buffers of the declared size). */
const unzipWithin = (bytes: Uint8Array, wanted: (name: string) => boolean): Unzipped | 'too_large' => {
  let entries = 0;
  let expanded = 0;
  unzipSync(bytes, {
    filter: (file) => {
      entries += 1;
      expanded += file.originalSize;
      return false;
    },
  });
  if (entries > ZIP_MAX_ENTRIES || expanded > ZIP_MAX_EXPANDED) return 'too_large';
  return unzipSync(bytes, { filter: (file) => wanted(file.name) });
};

const baseName = (name: string) => name.split('/').at(-1) ?? name;

const readZip = async (bytes: Uint8Array): Promise<ReadResult> => {
  let files: Unzipped | 'too_large';
  try {
    files = unzipWithin(bytes, (name) => !name.endsWith('/'));
  } catch {
    return fail('unreadable_file');
  }
  if (files === 'too_large') return fail('archive_too_large');
  if (files['word/document.xml']) return readDocx(files);
  const csvs = new Map(Object.entries(files).map(([name, data]) => [baseName(name), data]));
  if (LINKEDIN_FILES.some((name) => csvs.has(name))) {
    const decoded = new Map<string, string>();
    for (const name of LINKEDIN_FILES) {
      const data = csvs.get(name);
      if (data) decoded.set(name, new TextDecoder().decode(data));
    }
    return readLinkedIn(decoded);
  }
  return fail('unsupported_type');
};

const readDocx = async (files: Unzipped): Promise<ReadResult> => {
  // mammoth reads the entries already expanded within the limits, stored again without compression.
  const checked = Buffer.from(zipSync(files, { level: 0 }));
  try {
    const { value } = await mammoth.extractRawText({ buffer: checked });
    return { ok: true, value: { format: 'docx', text: value } };
  } catch {
    return fail('unreadable_file');
  }
};

// ---------------------------------------------------------------- LinkedIn CSVs

type Row = Record<string, string>;

const rowsOf = (csv: string): Row[] => {
  // LinkedIn puts a line of notes above the header in some files: start at the header.
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines.findIndex((line) => /^"?(First Name|Company Name|School Name|Name)"?,/.test(line) || /^"?Name"?$/.test(line));
  const from = header < 0 ? csv : lines.slice(header).join('\n');
  return parseCsv(from, { columns: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as Row[];
};

const span = (from?: string, to?: string) => (from || to ? ` (${from || '…'} – ${to || 'present'})` : '');
const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(', ');

/** Which LinkedIn file a CSV is, by its header. */
const linkedInFileOf = (csv: string): (typeof LINKEDIN_FILES)[number] | null => {
  const head = csv.slice(0, 2_000);
  if (/First Name/.test(head) && /Last Name/.test(head)) return 'Profile.csv';
  if (/Company Name/.test(head) && /Title/.test(head)) return 'Positions.csv';
  if (/School Name/.test(head)) return 'Education.csv';
  if (/^\uFEFF?"?Name"?\s*$/m.test(head)) return 'Skills.csv';
  return null;
};

/** The profile, positions, education and skills as Markdown; address and birth date are left out. */
const readLinkedIn = (files: Map<string, string>): ReadResult => {
  const out: string[] = [];
  try {
    const profile = files.has('Profile.csv') ? rowsOf(files.get('Profile.csv')!)[0] : undefined;
    if (profile) {
      const name = joined(profile['First Name'], profile['Last Name']).replace(', ', ' ');
      if (name) out.push(`# ${name}`);
      if (profile.Headline) out.push(profile.Headline);
      if (profile.Summary) out.push('## Summary', profile.Summary);
    }
    const positions = files.has('Positions.csv') ? rowsOf(files.get('Positions.csv')!) : [];
    if (positions.length) {
      out.push('## Experience');
      for (const p of positions) out.push(`### ${joined(p.Title, p['Company Name'])}${span(p['Started On'], p['Finished On'])}`, ...[p.Location, p.Description].filter((x): x is string => !!x));
    }
    const schools = files.has('Education.csv') ? rowsOf(files.get('Education.csv')!) : [];
    if (schools.length) {
      out.push('## Education');
      for (const s of schools) out.push(`### ${joined(s['Degree Name'], s['School Name'])}${span(s['Start Date'], s['End Date'])}`, ...[s.Notes, s.Activities].filter((x): x is string => !!x));
    }
    const skills = files.has('Skills.csv') ? rowsOf(files.get('Skills.csv')!).map((s) => s.Name).filter(Boolean) : [];
    if (skills.length) out.push('## Skills', skills.join(', '));
  } catch {
    return fail('unreadable_file');
  }
  return { ok: true, value: { format: 'linkedin', text: out.join('\n\n') } };
};

// ---------------------------------------------------------------- Markdown, plain text, one LinkedIn CSV

const readText = (bytes: Uint8Array, fileName: string | null): ReadResult => {
  const text = decodedText(bytes);
  if (text === null) return fail('unsupported_type');
  // Text has no NUL and few control characters; anything else is a binary file of another kind.
  // eslint-disable-next-line no-control-regex -- counting control characters is the point
  const controls = text.match(/[\u0000-\u0008\u000e-\u001f]/g)?.length ?? 0;
  if (text.includes('\u0000') || controls > text.length / 100) return fail('unsupported_type');
  const csvFile = /\.csv$/i.test(fileName ?? '') || !fileName ? linkedInFileOf(text) : null;
  if (csvFile) return readLinkedIn(new Map([[csvFile, text]]));
  if (/\.csv$/i.test(fileName ?? '')) return fail('unsupported_type');
  const markdown = /\.(md|markdown)$/i.test(fileName ?? '') || /^#{1,6}\s/m.test(text);
  return { ok: true, value: { format: markdown ? 'markdown' : 'text', text } };
};

/**
 * The text of a text file, in the encodings editors save CVs in: UTF-16 when it starts with its
 * byte-order mark (Windows Notepad's "Unicode"), else UTF-8 (with or without its mark), else, for
 * bytes that are not UTF-8, Windows-1252 (Notepad's "ANSI" on Western systems, a superset of
 * Latin-1). Null for UTF-16 that is not. A binary file decodes to control characters, which the
 * caller refuses.
 */
const decodedText = (bytes: Uint8Array): string | null => {
  const utf16 = startsWith(bytes, [0xff, 0xfe]) ? 'utf-16le' : startsWith(bytes, [0xfe, 0xff]) ? 'utf-16be' : null;
  try {
    if (utf16) return new TextDecoder(utf16, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Node 20's 'windows-1252' decoder is Latin-1 (0x80-0x9F become C1 controls), so those 32 bytes are mapped here.
    return new TextDecoder('latin1').decode(bytes).replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
  }
};

/** Windows-1252's characters for the bytes 0x80-0x9F (the WHATWG index; the five it leaves undefined stay as they are). */
const WINDOWS_1252_HIGH = [...'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178'];
