/**
 * The learned scorer: a multinomial logistic regression over hashed n-grams (features.ts) that
 * answers "benign" or one of the five block reasons, for each window of each reading of a message.
 *
 * The model is data, in scorer-model.json (scorer-model.ts loads it), rebuilt byte for byte by
 * `npm run train:guardrails` from the committed training sets; whoever composes the program loads
 * it once and passes it in. Its weights are 8-bit integers, one row of CLASSES per hash
 * bucket, with one scale for all; a window's logits are its bias plus the sum of its features'
 * rows, divided by the square root of its feature count. The message scores as its most
 * attack-like window.
 */
import { BLOCK_REASONS, type BlockReason } from './block-reasons.ts';
import { BUCKETS, FeatureReader } from './features.ts';

/** The model's classes, in the order of its weight rows. */
export const CLASSES = ['benign', ...BLOCK_REASONS] as const;
export type ScorerClass = (typeof CLASSES)[number];
const CLASS_COUNT = CLASSES.length;

export interface ScorerModel {
  format: number;
  bucketBits: number;
  classes: string[];
  /** Weight of one unit of the 8-bit weights. */
  scale: number;
  bias: number[];
  /** The least attack probability (1 - P(benign)) that blocks a message the rules let through. */
  threshold: number;
  /**
   * Below this attack probability of the passage a rule matched (and its context), the rule's match
   * is overruled; 0 (or absent, in older models): a rule's match always stands. Earned on dev data.
   */
  veto?: number;
  /** The weights, Int8 in bucket-major order, base64. */
  weights: string;
}

export interface WindowScores {
  /** 1 - P(benign) of the most attack-like window. */
  attack: number;
  /** The likeliest block reason in that window. */
  reason: BlockReason;
}

export class LearnedScorer {
  private readonly weights: Int8Array;
  private readonly bias: Float64Array;
  private readonly scale: number;
  readonly threshold: number;
  readonly veto: number;
  private readonly reader = new FeatureReader();

  constructor(model: ScorerModel) {
    if (model.classes.join() !== CLASSES.join() || 1 << model.bucketBits !== BUCKETS) {
      throw new Error('scorer-model.json does not fit this scorer: retrain it with npm run train:guardrails');
    }
    const bytes = Buffer.from(model.weights, 'base64');
    this.weights = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bias = Float64Array.from(model.bias);
    this.scale = model.scale;
    this.threshold = model.threshold;
    this.veto = model.veto ?? 0;
  }

  /** The most attack-like window over all the readings of one message. */
  score(readings: readonly string[]): WindowScores {
    const best: WindowScores = { attack: 0, reason: BLOCK_REASONS[0] };
    const sums = new Float64Array(CLASS_COUNT);
    // Each window is scored as the reader closes it.
    const scoreWindow = (start: number, end: number) => {
      this.windowLogits(this.reader.buckets, start, end, sums);
      this.keepIfWorse(sums, best);
      return false;
    };
    for (const text of readings) this.reader.read(text, scoreWindow);
    return best;
  }

  private windowLogits(buckets: Int32Array, start: number, end: number, logits: Float64Array): void {
    const w = this.weights;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
    for (let i = start; i < end; i += 1) {
      const row = (buckets[i] as number) * CLASS_COUNT;
      s0 += w[row] as number;
      s1 += w[row + 1] as number;
      s2 += w[row + 2] as number;
      s3 += w[row + 3] as number;
      s4 += w[row + 4] as number;
      s5 += w[row + 5] as number;
    }
    const k = this.scale / Math.sqrt(end - start);
    const b = this.bias;
    logits[0] = (b[0] as number) + k * s0;
    logits[1] = (b[1] as number) + k * s1;
    logits[2] = (b[2] as number) + k * s2;
    logits[3] = (b[3] as number) + k * s3;
    logits[4] = (b[4] as number) + k * s4;
    logits[5] = (b[5] as number) + k * s5;
  }

  private keepIfWorse(logits: Float64Array, best: WindowScores): void {
    let max = -Infinity;
    for (let c = 0; c < CLASS_COUNT; c += 1) max = Math.max(max, logits[c] as number);
    let total = 0;
    let top = 1;
    for (let c = 0; c < CLASS_COUNT; c += 1) {
      const e = Math.exp((logits[c] as number) - max);
      logits[c] = e;
      total += e;
      if (c > 0 && e > (logits[top] as number)) top = c;
    }
    const attack = 1 - (logits[0] as number) / total;
    if (attack > best.attack) {
      best.attack = attack;
      best.reason = CLASSES[top] as BlockReason;
    }
  }
}
