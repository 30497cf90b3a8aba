import { Router } from 'express';
import { z } from 'zod';
import { CV_MAX_BYTES, type makeImportCv } from '../../application/import-cv.ts';
import { CV_IMPORT_ERRORS, cvTooLargeReply, importCvErrorReply, reply } from './http-errors.ts';
import { errorBody, OWNER_RESPONSES, type OperationDoc } from './operation-doc.ts';
import { readRawBody } from './request-body.ts';
import { validQuery } from './validated.ts';

export interface ImportRouteDeps {
  importCv: ReturnType<typeof makeImportCv>;
}

const importQuery = z.object({
  name: z.string().max(255).optional().meta({ description: 'The file’s name (its extension tells Markdown and CSV from plain text)' }),
});

const importedCvSchema = z.object({
  format: z.enum(['pdf', 'docx', 'markdown', 'text', 'linkedin']),
  text: z.string().meta({ description: 'The text tidied into `## Heading` sections, for review; at most 50,000 characters' }),
  sections: z.array(z.object({ heading: z.string(), body: z.string() })),
  truncated: z.boolean().meta({ description: 'The text was cut at 50,000 characters' }),
});

const words = (...codes: (keyof typeof CV_IMPORT_ERRORS)[]) => z.object({ error: z.enum(codes.map((c) => CV_IMPORT_ERRORS[c]) as [string, ...string[]]) });

export const importOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/bots/import',
    tag: 'Owner',
    summary: 'Read a CV into text for the career context, for review',
    description:
      'The body is the file itself (PDF, DOCX, Markdown, plain text, a LinkedIn data export zip or one of its Profile/Positions/Education/Skills CSVs), at most 5 MB and 30 pages. It is read in a worker thread with a time and memory limit, never stored, and nothing is saved: the owner reviews the text and saves the bot.',
    security: 'session',
    bodyContentTypes: ['application/octet-stream', 'application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/markdown', 'text/plain', 'text/csv', 'application/zip'],
    query: importQuery,
    responses: {
      200: { description: 'The text, for review', schema: importedCvSchema },
      400: { description: 'An empty file, or a name over 255 characters', schema: z.union([words('emptyFile'), OWNER_RESPONSES.queryInvalid.schema]) },
      401: OWNER_RESPONSES.unauthorized,
      403: OWNER_RESPONSES.forbidden,
      413: { description: 'Over 5 MB', schema: errorBody(CV_IMPORT_ERRORS.tooLarge) },
      415: { description: 'Not one of the formats read (by its bytes, not its name)', schema: words('unsupportedType') },
      422: {
        description: 'A document refused: over 30 pages, encrypted, with scripts, without text, a zip bomb, damaged, or too slow to read',
        schema: z.union([
          errorBody(CV_IMPORT_ERRORS.tooManyPages, { pages: z.number().int() }),
          words('encryptedPdf', 'pdfWithScripts', 'noTextLayer', 'noText', 'archiveTooLarge', 'unreadableFile', 'tookTooLong'),
        ]),
      },
    },
  },
];

/** Mounted at /api/bots/import behind the session, requireUser and the Origin check (its body is a file, not JSON). */
export const importRoutes = (d: ImportRouteDeps): Router => {
  const router = Router();
  router.post(
    '/',
    validQuery(importQuery, async (req, res, query) => {
      const body = await readRawBody(req, CV_MAX_BYTES);
      if (body.kind === 'too_large') return reply(res, cvTooLargeReply);
      const result = await d.importCv({ bytes: new Uint8Array(body.raw), fileName: query.name ?? null });
      if (!result.ok) return reply(res, importCvErrorReply(result.error));
      res.set('Cache-Control', 'no-store').json(result.value);
    }),
  );
  return router;
};
