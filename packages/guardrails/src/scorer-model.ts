/**
 * The shipped model of the learned scorer, as data: `import { SCORER_MODEL } from
 * '@careerbot/guardrails/model'`. A plain JSON import, so it also loads where there is no file
 * system (a serverless or edge function); whoever composes the program imports it once and passes
 * it to createMessageCheck.
 */
import model from './scorer-model.json' with { type: 'json' };
import type { ScorerModel } from './learned-scorer.ts';

export const SCORER_MODEL: ScorerModel = model;
