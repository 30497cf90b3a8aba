import { Router } from 'express';
import { z } from 'zod';
import type { makeGetInsights } from '../../application/get-insights.ts';
import { ownerErrorReply, reply } from './http-errors.ts';
import { OWNER_RESPONSES, uuidString, type OperationDoc } from './operation-doc.ts';
import { currentUserId } from './owner-auth.ts';
import { validQuery } from './validated.ts';

export interface InsightsRouteDeps {
  getInsights: ReturnType<typeof makeGetInsights>;
}

export const insightsQuery = z.object({
  days: z.enum(['30', '90'], { message: 'Must be 30 or 90' }).optional().meta({ description: 'The period, in days up to today (UTC); 30 by default' }),
});

const count = z.number().int().min(0);
const insightsSchema = z.object({
  days: z.union([z.literal(30), z.literal(90)]),
  series: z.array(
    z.object({
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description: 'UTC day' }),
      conversations: count.meta({ description: 'Conversations started that day' }),
      messages: count.meta({ description: 'Messages of the conversations started that day' }),
      leads: count.meta({ description: 'Leads captured that day' }),
    }),
  ),
  totals: z.object({
    conversations: count,
    messages: count,
    leads: count,
    conversationsWithLead: count,
    leadShare: z.number().min(0).max(1).meta({ description: 'Share of the period’s conversations that ended in a lead (0 to 1)' }),
  }),
  topQuestions: z.array(
    z.object({
      question: z.string().meta({ description: 'As the latest conversation that opened with it worded it' }),
      count: count.meta({ description: 'Conversations that opened with it (case, punctuation and spacing ignored)' }),
      conversationIds: z.array(uuidString).meta({ description: 'The latest such conversations, newest first (at most 5)' }),
    }),
  ),
  refusals: z.array(z.object({ reason: z.string().meta({ description: 'The filter’s reason, as chat’s `blocked` answer names it' }), count })),
});

export const insightsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/bots/insights',
    tag: 'Owner',
    summary: 'Conversations, messages and leads per day, the share that ends in a lead, the top first questions, and refused messages by reason',
    security: 'session',
    query: insightsQuery,
    responses: {
      200: { description: 'The insights', schema: insightsSchema },
      400: OWNER_RESPONSES.queryInvalid,
      401: OWNER_RESPONSES.unauthorized,
      404: OWNER_RESPONSES.botNotFound,
    },
  },
];

/** Mounted at /api/bots/insights behind the owner middleware. */
export const insightsRoutes = (d: InsightsRouteDeps): Router => {
  const router = Router();
  router.get(
    '/',
    validQuery(insightsQuery, async (req, res, query) => {
      const result = await d.getInsights(currentUserId(req), query.days === '90' ? 90 : 30);
      if (!result.ok) return reply(res, ownerErrorReply(result.error));
      res.set('Cache-Control', 'no-store').json(result.value);
    }),
  );
  return router;
};
