/**
 * npm run train:guardrails — fits the learned scorer on the train split (scripts/support/guardrails-data.ts),
 * picks on the dev split its veto (below which its review of the passage a rule matched overrules
 * the rule) and then its threshold, and writes src/scorer-model.json.
 * `-- --check` writes nothing: it rebuilds the model in memory and exits 1 if the committed file
 * differs from it by a byte, as CI does.
 *
 * The fit is deterministic: a fixed seed orders the examples, the arithmetic is the same on every
 * run, and the weights are rounded to 8 bits before they are written.
 *
 * Each message is read as the check's scorer reads it (scoredTexts: its normalised text and each
 * decoded reading, a job document without the attacks it quotes), cut into the scorer's windows. A
 * recruiter message teaches "benign" with every window. An attack teaches its category with one
 * window only, the one the model finds most like it (multiple-instance learning): an order hidden
 * in a job description must not teach that job descriptions are attacks. The first epoch learns
 * from one-window messages only, to start from something.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BUCKETS,
  CLASSES,
  FeatureReader,
  createSplitCheck,
  LearnedScorer,
  MessageReader,
  type ScorerModel,
  scoredTexts,
} from '../src/tooling.ts';
import { readSplit, SOURCES, type LabelledMessage } from './support/guardrails-data.ts';
import { mulberry32 } from './support/random.ts';

const SEED = 20261125;
const EPOCHS = 8;
const LEARNING_RATE = 0.6;
const L2 = 1e-5;
/**
 * The dev split's allowances that pick the threshold: the false positives the scorer may add to the
 * rules' own, on recruiter messages, on their hard negatives, and on NotInject's everyday prompts
 * full of trigger words. Half the targets for recruiters: the rules already spend more.
 * NotInject's dev set is 113 messages, so its allowance is a count: 3 % let three of them through and
 * one creative-writing prompt ("uncensored creativity") held the threshold at 0.87 in issue 23's
 * eleventh iteration; 4 % (four) gave 0.81 and round 19 (dev) 81.0 % of its attacks blocked
 * instead of 76.9 %, with 14 recruiter messages refused of 629 instead of 13.
 */
const DEV_ADDED_FALSE_POSITIVES = 0.005;
const DEV_ADDED_HARD_FALSE_POSITIVES = 0.01;
const DEV_ADDED_NOTINJECT_FALSE_POSITIVES = 0.04;
/** The share of the dev attacks the rules catch (plain, and padded) that the veto may overrule. */
const DEV_VETO_LOST_ATTACKS = 0.01;
const LONG_MESSAGE_CHARS = 1000;
/** Rounds of picking the veto and the threshold in turn, which in practice settle in one or two. */
const MAX_PICK_ROUNDS = 4;
/**
 * How many times each message written by helpers who never saw the filter counts in training: they
 * are fewer than the synthetic messages, and more like what real visitors write. Picked on dev in
 * issue 23's tenth iteration: 3, 6, 10, 15 and 25 gave round 17 (dev) 68.8, 73.6, 77.9, 79.8 and
 * 77.9 % of its attacks blocked, with 3.2 to 3.5 % of its recruiter messages refused at each.
 */
const HELPER_WEIGHT = 15;
const CLASS_COUNT = CLASSES.length;
if (CLASS_COUNT !== 6) throw new Error('The trainer sums the six classes unrolled: unroll it again for the new classes.');
const MODEL_PATH = fileURLToPath(new URL('../src/scorer-model.json', import.meta.url));

interface Example {
  label: number;
  /** Each window's feature buckets. */
  windows: Int32Array[];
}

function toExamples(messages: LabelledMessage[]): Example[] {
  const reader = new FeatureReader();
  const messageReader = new MessageReader();
  return messages.map((message) => {
    const windows: Int32Array[] = [];
    for (const text of scoredTexts(messageReader.read(message.text))) {
      const { buckets, windowEnds } = reader.read(text);
      let start = 0;
      for (const end of windowEnds) {
        windows.push(buckets.slice(start, end));
        start = end;
      }
    }
    return { label: CLASSES.indexOf(message.label), windows };
  });
}

class Trainer {
  readonly weights = new Float64Array(BUCKETS * CLASS_COUNT);
  readonly bias = new Float64Array(CLASS_COUNT);
  private readonly p = new Float64Array(CLASS_COUNT);

  /**
   * Softmax probabilities of one window, in this.p. The six classes' sums are unrolled into locals,
   * here and in step: the same operations in the same order as a loop over the classes, so the same
   * bits, in less than half the time (CI rebuilds the model on every run).
   */
  private predict(window: Int32Array): Float64Array {
    const x = 1 / Math.sqrt(window.length);
    const w = this.weights;
    let p0 = this.bias[0] as number;
    let p1 = this.bias[1] as number;
    let p2 = this.bias[2] as number;
    let p3 = this.bias[3] as number;
    let p4 = this.bias[4] as number;
    let p5 = this.bias[5] as number;
    for (let i = 0; i < window.length; i += 1) {
      const row = (window[i] as number) * CLASS_COUNT;
      p0 += x * (w[row] as number);
      p1 += x * (w[row + 1] as number);
      p2 += x * (w[row + 2] as number);
      p3 += x * (w[row + 3] as number);
      p4 += x * (w[row + 4] as number);
      p5 += x * (w[row + 5] as number);
    }
    const p = this.p;
    p[0] = p0;
    p[1] = p1;
    p[2] = p2;
    p[3] = p3;
    p[4] = p4;
    p[5] = p5;
    let max = -Infinity;
    for (let c = 0; c < CLASS_COUNT; c += 1) max = Math.max(max, p[c] as number);
    let total = 0;
    for (let c = 0; c < CLASS_COUNT; c += 1) {
      p[c] = Math.exp((p[c] as number) - max);
      total += p[c] as number;
    }
    for (let c = 0; c < CLASS_COUNT; c += 1) p[c] = (p[c] as number) / total;
    return p;
  }

  private step(window: Int32Array, label: number, rate: number, weight: number): void {
    const p = this.predict(window);
    const x = 1 / Math.sqrt(window.length);
    for (let c = 0; c < CLASS_COUNT; c += 1) {
      const gradient = weight * ((p[c] as number) - (c === label ? 1 : 0));
      this.bias[c] = (this.bias[c] as number) - rate * gradient * 0.1;
      p[c] = gradient;
    }
    const w = this.weights;
    const decay = (k: number, g: number) => {
      const v = w[k] as number;
      w[k] = v - rate * (g * x + L2 * v);
    };
    for (let i = 0; i < window.length; i += 1) {
      const row = (window[i] as number) * CLASS_COUNT;
      decay(row, p[0] as number);
      decay(row + 1, p[1] as number);
      decay(row + 2, p[2] as number);
      decay(row + 3, p[3] as number);
      decay(row + 4, p[4] as number);
      decay(row + 5, p[5] as number);
    }
  }

  /** The window of an attack that the model finds most like its category. */
  private likeliestWindow(example: Example): Int32Array {
    let best = example.windows[0] as Int32Array;
    let bestP = -1;
    for (const window of example.windows) {
      const p = this.predict(window)[example.label] as number;
      if (p > bestP) {
        bestP = p;
        best = window;
      }
    }
    return best;
  }

  fit(examples: Example[]): void {
    const random = mulberry32(SEED);
    const order = examples.map((_, i) => i);
    const attacks = examples.filter((e) => e.label !== 0).length;
    const benignWeight = attacks / Math.max(1, examples.length - attacks);
    for (let epoch = 0; epoch < EPOCHS; epoch += 1) {
      for (let i = order.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j] as number, order[i] as number];
      }
      const rate = LEARNING_RATE / (1 + epoch);
      for (const index of order) {
        const example = examples[index] as Example;
        if (example.windows.length === 0) continue;
        if (example.label === 0) {
          for (const window of example.windows) this.step(window, 0, rate, benignWeight);
        } else if (example.windows.length === 1 || epoch > 0) {
          this.step(this.likeliestWindow(example), example.label, rate, 1);
        }
      }
    }
  }
}

/** The trained weights as the committed model holds them, with no threshold yet. */
function quantize(trainer: Trainer): ScorerModel {
  let maxAbs = 0;
  for (const w of trainer.weights) maxAbs = Math.max(maxAbs, Math.abs(w));
  const scale = maxAbs / 127;
  const weights = new Int8Array(trainer.weights.length);
  for (let i = 0; i < weights.length; i += 1) weights[i] = Math.round((trainer.weights[i] as number) / scale);
  return {
    format: 1,
    bucketBits: Math.log2(BUCKETS),
    classes: [...CLASSES],
    scale,
    bias: [...trainer.bias],
    threshold: 1,
    weights: Buffer.from(weights.buffer).toString('base64'),
  };
}

/**
 * Each dev attack, glued into the middle of a long dev recruiter message with no sentence end around
 * it: the padding a veto must not be fooled by. The hosts are messages no rule matches, so that a
 * match in the padded message is the attack's.
 */
function paddedAttacks(dev: LabelledMessage[], rulesPass: (text: string) => boolean): string[] {
  const long = dev.filter((m) => m.label === 'benign' && m.text.length >= LONG_MESSAGE_CHARS && m.text.length <= 6000 && rulesPass(m.text));
  return dev
    .filter((m) => m.label !== 'benign')
    .map((attack, i) => {
      const host = (long[i % long.length] as LabelledMessage).text;
      const middle = host.indexOf(' ', host.length >> 1);
      return `${host.slice(0, middle)} ${attack.text.replace(/[.!?]+\s*$/, '')} ${host.slice(middle + 1)}`;
    });
}

/**
 * The highest veto, on a grid of 0.01, under which the check lets through at most
 * DEV_VETO_LOST_ATTACKS of the dev attacks the rules catch, plain and padded into long recruiter
 * messages: an attack is lost when the scorer's review of the passage a rule matched overrules the
 * rule and the scorer's own score of the message is below `threshold` too.
 */
function pickVeto(model: ScorerModel, dev: LabelledMessage[], threshold: number): number {
  const { verdictsOf } = createSplitCheck(new LearnedScorer({ ...model, threshold: 1 }));
  const caught = (texts: string[]) =>
    texts
      .map((text) => verdictsOf(text))
      .filter((v) => v.rules.blocked)
      .map((v) => ({ review: v.review ?? 1, attack: v.attack }));
  const plain = caught(dev.filter((m) => m.label !== 'benign').map((m) => m.text));
  const padded = caught(paddedAttacks(dev, (text) => !verdictsOf(text).rules.blocked));
  const lost = (attacks: typeof plain, veto: number) =>
    attacks.filter((a) => a.review < veto && a.attack < threshold).length / Math.max(1, attacks.length);
  let veto = 0;
  for (let step = 1; step < 100; step += 1) {
    const candidate = step / 100;
    if (lost(plain, candidate) > DEV_VETO_LOST_ATTACKS || lost(padded, candidate) > DEV_VETO_LOST_ATTACKS) break;
    veto = candidate;
  }
  return veto;
}

/** The least threshold, on a grid of 0.01, that keeps what the scorer adds to the rules within the dev allowances. */
function pickThreshold(model: ScorerModel, dev: LabelledMessage[]): number {
  const { verdictsOf } = createSplitCheck(new LearnedScorer({ ...model, threshold: 1 }));
  const scored = dev
    .filter((m) => m.label === 'benign')
    .map((m) => {
      const verdicts = verdictsOf(m.text);
      return { message: m, rules: verdicts.combined.blocked, attack: verdicts.attack };
    });
  const notInject = scored.filter((s) => s.message.source.startsWith('notinject'));
  const recruiter = scored.filter((s) => !s.message.source.startsWith('notinject'));
  const hard = recruiter.filter((s) => s.message.hardNegative);
  const rate = (set: typeof scored, t: number) => set.filter((s) => !s.rules && s.attack >= t).length / Math.max(1, set.length);
  for (let step = 50; step < 100; step += 1) {
    const t = step / 100;
    if (
      rate(recruiter, t) <= DEV_ADDED_FALSE_POSITIVES &&
      rate(hard, t) <= DEV_ADDED_HARD_FALSE_POSITIVES &&
      rate(notInject, t) <= DEV_ADDED_NOTINJECT_FALSE_POSITIVES
    ) {
      return t;
    }
  }
  return 0.99;
}

function trainModel(): string {
  const train = readSplit('train');
  const trainer = new Trainer();
  const byHelpers = new Set(SOURCES.filter((s) => s.writtenByHelpers).map((s) => s.name));
  // A helper's message is read once and its example repeated: the fit reads examples, never writes them.
  const examples = toExamples(train);
  trainer.fit(train.flatMap((m, i) => Array<Example>(byHelpers.has(m.source) ? HELPER_WEIGHT : 1).fill(examples[i] as Example)));
  return withVetoAndThreshold(quantize(trainer));
}

/** The veto and the threshold picked on dev for the given weights. */
function withVetoAndThreshold(unthresholded: ScorerModel): string {
  const dev = readSplit('dev');
  // The veto counts an overruled attack as lost only when the scorer does not block it either, so it
  // depends on the threshold, which depends on the veto: from the veto that trusts no score of the
  // scorer (threshold 1), alternate until neither moves. A pair that does not settle keeps that first veto.
  const safeVeto = pickVeto(unthresholded, dev, 1);
  const safe = { veto: safeVeto, threshold: pickThreshold({ ...unthresholded, veto: safeVeto }, dev) };
  let picked: typeof safe | null = null;
  for (let round = 0, current = safe; round < MAX_PICK_ROUNDS && picked === null; round += 1) {
    const veto = pickVeto(unthresholded, dev, current.threshold);
    const next = { veto, threshold: pickThreshold({ ...unthresholded, veto }, dev) };
    if (next.veto === current.veto && next.threshold === current.threshold) picked = next;
    current = next;
  }
  const { veto, threshold } = picked ?? safe;
  console.log(`picked on dev: veto ${veto}, threshold ${threshold}${picked === null ? ' (the pair did not settle)' : ''}`);
  return JSON.stringify({ ...unthresholded, threshold, veto }) + '\n';
}

const check = process.argv.includes('--check');
// `--repick`: keep the committed weights and pick the veto and threshold again on dev, for trying a
// change of the check itself in seconds; a full run gives the same model when the training data did not change.
const repick = process.argv.includes('--repick');
const started = Date.now();
const built = repick ? withVetoAndThreshold(JSON.parse(readFileSync(MODEL_PATH, 'utf8')) as ScorerModel) : trainModel();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const sources = SOURCES.filter((s) => s.split === 'train').map((s) => s.name);
if (check) {
  const committed = readFileSync(MODEL_PATH, 'utf8');
  if (committed !== built) {
    console.error('scorer-model.json does not match its training data: run npm run train:guardrails and commit the result.');
    process.exit(1);
  }
  console.log(`scorer-model.json matches its training data (rebuilt in ${seconds} s from ${sources.join(', ')}).`);
} else {
  writeFileSync(MODEL_PATH, built);
  const { threshold, veto } = JSON.parse(built) as ScorerModel;
  console.log(`wrote scorer-model.json (${(built.length / 1e6).toFixed(2)} MB, threshold ${threshold}, veto ${veto}) in ${seconds} s from ${sources.join(', ')}.`);
}
