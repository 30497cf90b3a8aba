// Importing a CV: every format from fixtures built here, and every hostile upload refused in words with a 4xx.
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, validBot, type HttpClient } from '@careerbot/testkit';
import { docx as docxOf } from '../support/cv-fixtures.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const CANARY = 'CVCANARY-5d1f0b7e';

let app: TestApp;
let owner: HttpClient;

beforeAll(async () => {
  app = await startTestApp();
  ({ client: owner } = await signedInClient(app.baseUrl));
});
afterAll(async () => {
  await app?.close();
});

const upload = async (bytes: Uint8Array, name: string | null, contentType = 'application/octet-stream', base = app.baseUrl, client = owner) => {
  const query = name === null ? '' : `?name=${encodeURIComponent(name)}`;
  const response = await fetch(`${base}/api/bots/import${query}`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader(), 'content-type': contentType, origin: base },
    body: Buffer.from(bytes),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) };
};

// ---------------------------------------------------------------- fixtures, built here

const CV_LINES = [
  'Grace Hopper',
  'Experience',
  `Rear admiral, US Navy (1943 - 1986) ${CANARY}`,
  'Wrote the first compiler, A-0, for the UNIVAC I.',
  'Education',
  'PhD in mathematics, Yale University, 1934',
  'Skills',
  'COBOL, compilers, teaching',
];

const docx = (paragraphs: string[] = CV_LINES, extra: Record<string, Uint8Array> = {}) => docxOf(paragraphs, extra);

const textPdf = async (pages = 1, lines = CV_LINES) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }));
  }
  return doc.save({ useObjectStreams: false });
};

/** A page with a drawn shape and no text at all: what a scanner gives, without the picture. */
const scannedPdf = async () => {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawRectangle({ x: 50, y: 50, width: 400, height: 600 });
  return doc.save();
};

const scriptPdf = async (useObjectStreams: boolean) => {
  const doc = await PDFDocument.load(await textPdf());
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }));
  return doc.save({ useObjectStreams });
};

/** The standard security handler with a user password: the owner must remove it before importing. */
const encryptedPdf = async () => {
  const plain = Buffer.from(await textPdf()).toString('latin1');
  const hex32 = 'ab'.repeat(32);
  const encrypt = `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${hex32}> /U <${hex32}> >>`;
  const withEncrypt = plain.replace(/trailer\s*<</, `trailer\n<< /Encrypt ${encrypt} /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`);
  expect(withEncrypt).not.toBe(plain);
  return Buffer.from(withEncrypt, 'latin1');
};

/** The four files of LinkedIn's data export, with the columns LinkedIn writes. */
const LINKEDIN = {
  'Profile.csv': `First Name,Last Name,Maiden Name,Address,Birth Date,Headline,Summary,Industry,Zip Code,Geo Location,Twitter Handles,Websites,Instant Messengers\nGrace,Hopper,,"1 Secret Street, Arlington",Dec 9 1906,Computer scientist,"Pioneer of compilers. ${CANARY}",Defense,,Arlington,,,`,
  'Positions.csv': 'Company Name,Title,Description,Location,Started On,Finished On\nUS Navy,Rear admiral,"Led the COBOL effort",Washington,Jan 1943,Aug 1986\nEckert-Mauchly,Senior mathematician,Wrote A-0,Philadelphia,1949,1952',
  'Education.csv': 'School Name,Start Date,End Date,Notes,Degree Name,Activities\nYale University,1930,1934,,PhD Mathematics,',
  'Skills.csv': 'Name\nCOBOL\nCompilers',
};

// ---------------------------------------------------------------- each format

describe('POST /api/bots/import reads each format into sections for review', () => {
  it('a PDF', async () => {
    const answer = await upload(await textPdf(), 'cv.pdf', 'application/pdf');
    expect(answer.status).toBe(200);
    expect(answer.json.format).toBe('pdf');
    expect(answer.json.text).toContain('## Experience');
    expect(answer.json.text).toContain('Wrote the first compiler');
    expect(answer.json.sections.map((s: { heading: string }) => s.heading)).toEqual(['', 'Experience', 'Education', 'Skills']);
  });

  it('a DOCX', async () => {
    const answer = await upload(docx(), 'cv.docx');
    expect(answer.status).toBe(200);
    expect(answer.json.format).toBe('docx');
    expect(answer.json.text).toContain('## Education');
    expect(answer.json.text).toContain('PhD in mathematics, Yale University');
  });

  it('Markdown keeps its headings, and plain text gets them', async () => {
    const md = await upload(strToU8('# Grace Hopper\n\n## Experience\n\n* Wrote   A-0\n\n\n\n## Skills\nCOBOL'), 'cv.md', 'text/markdown');
    expect(md.status).toBe(200);
    expect(md.json.format).toBe('markdown');
    expect(md.json.text).toBe('# Grace Hopper\n\n## Experience\n\n* Wrote A-0\n\n## Skills\n\nCOBOL');
    const txt = await upload(strToU8(CV_LINES.join('\n')), 'cv.txt', 'text/plain');
    expect(txt.status).toBe(200);
    expect(txt.json.format).toBe('text');
    expect(txt.json.text).toContain('## Skills\n\nCOBOL, compilers, teaching');
  });

  it('plain text as Windows editors save it: UTF-16 with its mark, UTF-8 with its mark, and Windows-1252', async () => {
    const cv = 'Grace Hopper — Rear admiral\nExperience: Wrote A-0; Renée taught COBOL at Yale.';
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(cv, 'utf16le')]);
    const utf16be = Buffer.from(utf16le.subarray(2)).swap16(); // a copy: swap16 works in place
    const utf8Marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(cv, 'utf8')]);
    const windows1252 = Buffer.from(cv.replace('—', '\u0097'), 'latin1'); // 0x97 is the em dash in Windows-1252
    for (const [bytes, name] of [
      [utf16le, 'notepad-unicode.txt'],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]), 'big-endian.txt'],
      [utf8Marked, 'notepad-utf8.txt'],
      [windows1252, 'notepad-ansi.txt'],
    ] as const) {
      const answer = await upload(bytes, name, 'text/plain');
      expect(answer.status, name).toBe(200);
      expect(answer.json.text, name).toContain('Grace Hopper — Rear admiral');
      expect(answer.json.text, name).toContain('Renée taught COBOL');
    }
    // A mark that promises UTF-16 over bytes that are not: refused, not read as garbage.
    const broken = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0x00, 0xd8, 0x41])]);
    expect((await upload(broken, 'broken.txt', 'text/plain')).status).toBe(415);
  });

  it('the LinkedIn export zip, without the address and birth date', async () => {
    const zip = zipSync(Object.fromEntries(Object.entries(LINKEDIN).map(([name, csv]) => [name, strToU8(csv)])));
    const answer = await upload(zip, 'Basic_LinkedInDataExport.zip', 'application/zip');
    expect(answer.status).toBe(200);
    expect(answer.json.format).toBe('linkedin');
    expect(answer.json.text).toContain('# Grace Hopper');
    expect(answer.json.text).toContain('### Rear admiral, US Navy (Jan 1943 – Aug 1986)');
    expect(answer.json.text).toContain('### PhD Mathematics, Yale University (1930 – 1934)');
    expect(answer.json.text).toContain('## Skills\n\nCOBOL, Compilers');
    expect(answer.json.text).not.toContain('Secret Street');
    expect(answer.json.text).not.toContain('1906');
  });

  it('one LinkedIn CSV on its own', async () => {
    const answer = await upload(strToU8(LINKEDIN['Positions.csv']), 'Positions.csv', 'text/csv');
    expect(answer.status).toBe(200);
    expect(answer.json.format).toBe('linkedin');
    expect(answer.json.text).toContain('### Senior mathematician, Eckert-Mauchly (1949 – 1952)');
  });

  it('saves nothing, and keeps no copy of the file anywhere in the database', async () => {
    const { client } = await signedInClient(app.baseUrl);
    expect((await client.post('/api/bots', validBot())).status).toBe(201);
    expect((await upload(strToU8(CV_LINES.join('\n')), 'cv.txt', 'text/plain', app.baseUrl, client)).status).toBe(200);
    expect((await client.get('/api/bots')).json.bot.contextText).toBe(validBot().contextText);
    const tables = await app.db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
    for (const { table_name } of tables.rows) {
      const found = await app.db.query(`SELECT 1 FROM "${table_name}" t WHERE t::text LIKE $1 LIMIT 1`, [`%${CANARY}%`]);
      expect(found.rowCount, table_name).toBe(0);
    }
  });

  it('cuts a text over 50,000 characters, and says so', async () => {
    const answer = await upload(strToU8('word '.repeat(12_000)), 'long.txt', 'text/plain');
    expect(answer.status).toBe(200);
    expect(answer.json.truncated).toBe(true);
    expect([...answer.json.text].length).toBe(50_000);
  });
});

// ---------------------------------------------------------------- hostile uploads

describe('a hostile upload gets a 4xx in words, never a 500 or a hang', () => {
  it('over 5 MB: 413', async () => {
    const answer = await upload(new Uint8Array(5 * 1024 * 1024 + 1).fill(0x41), 'big.txt', 'text/plain');
    expect(answer.status).toBe(413);
    expect(answer.json.error).toBe('The file is larger than 5 MB');
  });

  it('over 30 pages: 422 with the count', async () => {
    const answer = await upload(await textPdf(31, ['Page of a long CV with enough text on it']), 'long.pdf', 'application/pdf');
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({ error: 'This PDF has more than 30 pages: shorten it, or paste the text', pages: 31 });
  });

  it('a zip bomb, as a LinkedIn export and as a DOCX: 422 before expanding it', async () => {
    const zeros = new Uint8Array(100 * 1024 * 1024);
    const bomb = zipSync({ 'Profile.csv': zeros }, { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // Both bombs are built before the first upload: compressing 100 MB on a busy machine can
    // outlast the service's 5 s keep-alive, and the next request would meet a closing socket.
    const docxBomb = docx(CV_LINES, { 'word/media/huge.bin': zeros });
    const asExport = await upload(bomb, 'export.zip', 'application/zip');
    expect(asExport.status).toBe(422);
    expect(asExport.json.error).toBe('This archive expands to more than 40 MB, so it was not opened');
    const asDocx = await upload(docxBomb, 'cv.docx');
    expect(asDocx.status).toBe(422);
    expect(asDocx.json.error).toBe('This archive expands to more than 40 MB, so it was not opened');
  }, 30_000);

  it('an encrypted PDF: 422', async () => {
    const answer = await upload(await encryptedPdf(), 'locked.pdf', 'application/pdf');
    expect(answer.status).toBe(422);
    expect(answer.json.error).toBe('This PDF is protected by a password: save a copy without one and import that');
  });

  it('a PDF with scripts, in plain sight or in a compressed object stream: 422', async () => {
    for (const useObjectStreams of [false, true]) {
      const answer = await upload(await scriptPdf(useObjectStreams), 'cv.pdf', 'application/pdf');
      expect(answer.status, `object streams: ${useObjectStreams}`).toBe(422);
      expect(answer.json.error).toBe('This PDF contains scripts, so it was not opened: print it to a new PDF and import that');
    }
  });

  it('a scanned PDF without text: 422', async () => {
    const answer = await upload(await scannedPdf(), 'scan.pdf', 'application/pdf');
    expect(answer.status).toBe(422);
    expect(answer.json.error).toMatch(/^This PDF has no text to read/);
  });

  it('the wrong type, whatever its name says: 415', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    for (const [bytes, name] of [
      [png, 'cv.pdf'],
      [png, 'cv.txt'],
      [zipSync({ 'photo.jpg': new Uint8Array(10) }), 'cv.docx'],
      [strToU8('just,some,columns\n1,2,3'), 'data.csv'],
    ] as const) {
      const answer = await upload(bytes, name);
      expect(answer.status, name).toBe(415);
      expect(answer.json.error).toBe('This file is not a PDF, a Word document (.docx), Markdown, plain text or a LinkedIn data export');
    }
  });

  it('a damaged PDF and an empty file: 422 and 400', async () => {
    const damaged = await upload(strToU8('%PDF-1.7\n1 0 obj << /Type /Catalog'), 'broken.pdf', 'application/pdf');
    expect(damaged.status).toBe(422);
    expect((await upload(new Uint8Array(0), 'empty.pdf')).status).toBe(400);
  });

  it('is for a signed-in owner, from our own origin', async () => {
    const response = await fetch(`${app.baseUrl}/api/bots/import`, { method: 'POST', body: 'text' });
    expect(response.status).toBe(401);
    const foreign = await fetch(`${app.baseUrl}/api/bots/import`, { method: 'POST', headers: { cookie: owner.cookieHeader(), origin: 'https://evil.example' }, body: 'text' });
    expect(foreign.status).toBe(403);
  });
});

describe('the time limit', () => {
  it('a parse that takes longer than CV_PARSE_TIMEOUT_MS is stopped: 422, and the service goes on', async () => {
    const slow = await startTestApp({ env: { CV_PARSE_TIMEOUT_MS: '50' } });
    try {
      const { client } = await signedInClient(slow.baseUrl);
      const answer = await upload(await textPdf(30), 'cv.pdf', 'application/pdf', slow.baseUrl, client);
      expect(answer.status).toBe(422);
      expect(answer.json.error).toBe('Reading this file took too long, so it was stopped: try a smaller file, or paste the text');
      expect((await client.get('/api/bots')).status).toBe(404);
    } finally {
      await slow.close();
    }
  });
});
