// A CV's extracted text, tidied for review: whitespace made regular, headings found, sections named.

export interface CvSection {
  heading: string;
  body: string;
}

/** Headings a CV commonly uses, in English, German, French and Spanish. */
const KNOWN_HEADINGS = new Set(
  [
    'summary', 'profile', 'about', 'about me', 'professional summary', 'objective',
    'experience', 'work experience', 'professional experience', 'employment', 'employment history', 'career', 'positions',
    'education', 'studies', 'training', 'qualifications',
    'skills', 'technical skills', 'core skills', 'competencies', 'key skills',
    'projects', 'publications', 'languages', 'certifications', 'certificates', 'awards', 'honours', 'honors',
    'interests', 'hobbies', 'volunteering', 'volunteer experience', 'references', 'contact',
    'berufserfahrung', 'ausbildung', 'kenntnisse', 'sprachen', 'expérience', 'formation', 'compétences', 'langues',
    'experiencia', 'educación', 'habilidades', 'idiomas',
  ].map((h) => h.normalize('NFC')),
);

const headingOf = (line: string): string | null => {
  const markdown = /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
  if (markdown) return markdown[1]!;
  const bare = line.replace(/[:\s]+$/, '').trim();
  if (bare.length === 0 || bare.length > 40) return null;
  if (KNOWN_HEADINGS.has(bare.toLowerCase())) return bare;
  return null;
};

const tidyLine = (line: string) =>
  line
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/[\t\u00a0\u2000-\u200b\u3000]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .replace(/^\s*[•●▪◦■·]\s*/, '- ')
    .trimEnd();

/**
 * Regular whitespace, bullets as `- `, at most one blank line in a row, and each heading
 * (a Markdown heading, or a line that is a known CV heading) written as `## Heading`.
 * `keepMarkdown`: the text is Markdown already, so its headings keep their level.
 */
export const tidyCv = (raw: string, keepMarkdown = false): { text: string; sections: CvSection[] } => {
  const lines = raw.normalize('NFC').replace(/\r\n?/g, '\n').split('\n').map(tidyLine);
  const sections: CvSection[] = [];
  const out: string[] = [];
  let current: { heading: string; body: string[] } = { heading: '', body: [] };
  const close = () => {
    const body = current.body.join('\n').trim();
    if (current.heading || body) sections.push({ heading: current.heading, body });
  };
  for (const line of lines) {
    const heading = headingOf(line.trim());
    if (heading) {
      close();
      current = { heading, body: [] };
      if (out.length && out.at(-1) !== '') out.push('');
      out.push(keepMarkdown && /^#{1,6}\s/.test(line.trim()) ? line.trim() : `## ${heading}`);
      out.push('');
      continue;
    }
    const blank = line.trim() === '';
    if (blank && (out.length === 0 || out.at(-1) === '')) continue;
    out.push(blank ? '' : line);
    current.body.push(line);
  }
  close();
  return { text: out.join('\n').trim(), sections };
};
