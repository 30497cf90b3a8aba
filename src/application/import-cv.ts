import { tidyCv, type CvSection } from '../domain/cv-text.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { CvReader, CvUnreadable } from './ports.ts';

export type ImportCvError = CvUnreadable;

export interface ImportedCv {
  format: 'pdf' | 'docx' | 'markdown' | 'text' | 'linkedin';
  /** The text tidied into sections, for the owner to review: nothing is saved here. */
  text: string;
  sections: CvSection[];
  /** The tidied text was longer than the career context allows and was cut. */
  truncated: boolean;
}

export const CV_MAX_BYTES = 5 * 1024 * 1024;
export const CV_MAX_PAGES = 30;

/** Reads a CV upload (never stored) into sections for review; the owner saves through UpsertBot. */
export const makeImportCv =
  (d: { reader: CvReader; maxChars: number }) =>
  async (upload: { bytes: Uint8Array; fileName: string | null }): Promise<Result<ImportedCv, ImportCvError>> => {
    if (upload.bytes.length === 0) return err({ type: 'empty_file' });
    const read = await d.reader.read(upload.bytes, { fileName: upload.fileName, maxPages: CV_MAX_PAGES });
    if (!read.ok) return read;
    const tidy = tidyCv(read.value.text, read.value.format === 'markdown' || read.value.format === 'linkedin');
    if (tidy.text.length === 0) return err(read.value.format === 'pdf' ? { type: 'no_text_layer' } : { type: 'no_text' });
    const points = [...tidy.text];
    const truncated = points.length > d.maxChars;
    return ok({ format: read.value.format, text: truncated ? points.slice(0, d.maxChars).join('') : tidy.text, sections: tidy.sections, truncated });
  };
