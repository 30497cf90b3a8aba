import { useState } from 'preact/hooks';
import { NETWORK_ERROR, uploadFile } from './api.ts';
import { Alert, Field } from './fields.tsx';

interface Imported {
  format: string;
  text: string;
  truncated: boolean;
}

const FORMAT_WORDS: Record<string, string> = {
  pdf: 'PDF',
  docx: 'Word document',
  markdown: 'Markdown',
  text: 'text',
  linkedin: 'LinkedIn export',
};

/**
 * "Import from a file": the file goes to POST /api/bots/import (never stored), the text comes
 * back for review and editing, and only "Use this text" puts it in the career context, which
 * the owner then saves with the rest of the bot.
 */
export const CvImportSection = (p: { onUse: (text: string, how: 'replace' | 'append') => void }) => {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [review, setReview] = useState<Imported | null>(null);
  // A new input for each file: once a file's text is used, its name no longer sits in the field.
  const [inputKey, setInputKey] = useState(0);

  const read = async () => {
    if (!file) return setProblem('Choose a file first.');
    setBusy(true);
    setProblem(null);
    setReview(null);
    try {
      const answer = await uploadFile<Imported>(`/api/bots/import?name=${encodeURIComponent(file.name.slice(0, 255))}`, file);
      if (answer.ok && answer.body) setReview(answer.body);
      else if (answer.status !== 401) setProblem(answer.body?.error ? `${answer.body.error}.` : 'The file could not be read. Please try again.');
    } catch {
      setProblem(NETWORK_ERROR);
    } finally {
      setBusy(false);
    }
  };

  const use = (how: 'replace' | 'append') => {
    if (!review) return;
    p.onUse(review.text, how);
    setReview(null);
    setFile(null);
    setInputKey(inputKey + 1);
  };

  return (
    <fieldset class="cv-import">
      <legend>Import from a file</legend>
      <p class="hint">
        A CV as PDF, Word (.docx), Markdown or text, or your LinkedIn data export (its zip, or Profile.csv, Positions.csv, Education.csv, Skills.csv). Up to 5 MB and 30 pages. The
        file is read, not kept: you review the text before it goes into your career context.
      </p>
      <Field label="CV file">
        {(a11y) => (
          <input {...a11y} key={inputKey} type="file" accept=".pdf,.docx,.md,.markdown,.txt,.csv,.zip" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        )}
      </Field>
      <button type="button" onClick={read} disabled={busy}>
        {busy ? 'Reading…' : 'Read the file'}
      </button>
      {problem && <Alert kind="error">{problem}</Alert>}
      {review && (
        <div class="cv-review">
          <Field
            label="Imported text (review and edit)"
            hint={`Read from your ${FORMAT_WORDS[review.format] ?? 'file'}.${review.truncated ? ' It was cut at 50,000 characters.' : ''} Nothing is saved until you save the bot.`}
          >
            {(a11y) => <textarea {...a11y} rows={12} value={review.text} onInput={(e) => setReview({ ...review, text: e.currentTarget.value })} />}
          </Field>
          <div class="actions">
            <button type="button" class="primary" onClick={() => use('replace')}>
              Use this text as the career context
            </button>
            <button type="button" onClick={() => use('append')}>
              Add it to the career context
            </button>
            <button type="button" onClick={() => setReview(null)}>
              Discard
            </button>
          </div>
        </div>
      )}
    </fieldset>
  );
};
