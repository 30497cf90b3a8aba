import { useRef, useState } from 'preact/hooks';
import { DEFAULT_MODELS } from '@careerbot/llm/models';
import { LLM_PROVIDERS, PERSONALITIES } from '../../../domain/types.ts';
import { api, fieldErrors, formErrors, NETWORK_ERROR } from './api.ts';
import { PROVIDER_NAMES } from '@careerbot/widget/chat-problems';
import { useOverview, type Overview } from './dashboard-layout.tsx';
import { CvImportSection } from './cv-import-section.tsx';
import { Alert, Field, useFocusAfterDraw } from './fields.tsx';
import { ownerKeyAnswers, useOwnerKey, type OwnerKeyView } from './owner-key-section.tsx';
import { PhotoSection } from './photo-section.tsx';

const CONTEXT_MAX = 50_000;
const QUESTIONS_MAX = 6;
const PERSONALITY_WORDS: Record<string, string> = {
  professional: 'Professional',
  creative: 'Creative',
  enthusiastic: 'Enthusiastic',
};

/** Lengths count Unicode code points, as the API does. */
const codePoints = (text: string) => [...text].length;

interface Draft {
  name: string;
  headline: string;
  personality: string;
  contextText: string;
  suggestedQuestions: string[];
  llmProvider: string;
  llmModel: string;
}

const EMPTY: Draft = { name: '', headline: '', personality: 'professional', contextText: '', suggestedQuestions: [], llmProvider: 'openai', llmModel: '' };

const draftOf = (overview: Overview | null): Draft => {
  if (!overview) return EMPTY;
  const { bot, llm } = overview;
  return {
    name: bot.name,
    headline: bot.headline ?? '',
    personality: bot.personality,
    contextText: bot.contextText,
    suggestedQuestions: bot.suggestedQuestions,
    llmProvider: llm.provider ?? 'openai',
    llmModel: llm.model && llm.model !== DEFAULT_MODELS[llm.provider as keyof typeof DEFAULT_MODELS] ? llm.model : '',
  };
};

/** The editor starts from the saved bot, so it waits for it. */
export const BotEditorPage = (p: { initial?: Overview | null | undefined; ownerKey?: OwnerKeyView | null | undefined }) => {
  const { loading, overview, reload } = useOverview(p.initial);
  const [ownerKey] = useOwnerKey(p.ownerKey);
  if (loading) return <p class="muted">Loading…</p>;
  // After a save the overview is read again: a bot just created gets its Photo section at once.
  return <BotEditor overview={overview} ownerKey={ownerKey} onSaved={() => void reload()} />;
};

/** Who pays for a visitor's chat with this provider: the overview's wording. */
const providerHint = (ownerKey: OwnerKeyView | null | undefined, provider: string) =>
  ownerKeyAnswers(ownerKey) && ownerKey?.key?.provider === provider
    ? 'Your saved key answers visitors for this provider; they may still use their own.'
    : 'Visitors chat with their own key for this provider, unless you save your own key in Settings.';

const BotEditor = ({ overview, ownerKey, onSaved }: { overview: Overview | null; ownerKey: OwnerKeyView | null | undefined; onSaved: () => void }) => {
  const [draft, setDraft] = useState<Draft>(() => draftOf(overview));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [exists, setExists] = useState(!!overview);
  const questions = useRef<HTMLFieldSetElement>(null);
  /**
   * Add a question and Remove question: the question field at this index (or the last one, or Add a
   * question when none is left) takes the focus once it is drawn.
   */
  const setFocusQuestion = useFocusAfterDraw<number>((index) => {
    const fields = Array.from(questions.current?.querySelectorAll('input') ?? []);
    return fields[Math.min(index, fields.length - 1)] ?? questions.current?.querySelector<HTMLButtonElement>('button.add-question');
  });

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const left = CONTEXT_MAX - codePoints(draft.contextText);
  const defaultModel = DEFAULT_MODELS[draft.llmProvider as keyof typeof DEFAULT_MODELS];

  const save = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setStatus(null);
    setErrors({});
    // A question left empty is one the owner did not write: it is not sent, and leaves the form as it is saved.
    const suggestedQuestions = draft.suggestedQuestions.map((question) => question.trim()).filter(Boolean);
    try {
      const answer = await api('/api/bots', {
        method: 'POST',
        body: {
          name: draft.name,
          headline: draft.headline || null,
          personality: draft.personality,
          contextText: draft.contextText,
          suggestedQuestions,
          llmProvider: draft.llmProvider,
          llmModel: draft.llmModel || null,
        },
      });
      if (answer.status === 201 || answer.status === 200) {
        setExists(true);
        set('suggestedQuestions', suggestedQuestions);
        setStatus({ kind: 'success', text: answer.status === 201 ? 'Your bot was created.' : 'Your bot was updated.' });
        onSaved();
      }
      else if (answer.status === 400) {
        setErrors(fieldErrors(answer));
        const general = formErrors(answer);
        setStatus({ kind: 'error', text: general.length ? general.join(' ') : 'Please correct the fields marked above.' });
      } else setStatus({ kind: 'error', text: 'Saving failed. Please try again.' });
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {/* A placeholder until the bot exists: the Photo section then takes its place without moving the
          form, which would drop the keyboard focus from Save bot. */}
      {overview ? <PhotoSection image={overview.image} /> : <div hidden />}
      <form class="card editor" onSubmit={save} noValidate>
        {!exists && <p class="muted">You have no bot yet. Fill this in and save to create it.</p>}
        <Field label="Name" errors={errors.name} hint="Up to 100 characters.">
          {(a11y) => <input {...a11y} maxLength={100} required value={draft.name} onInput={(e) => set('name', e.currentTarget.value)} />}
        </Field>
        <Field label="Headline (optional)" errors={errors.headline} hint="Up to 120 characters, e.g. “Senior backend engineer, open to remote roles”.">
          {(a11y) => <input {...a11y} maxLength={120} value={draft.headline} onInput={(e) => set('headline', e.currentTarget.value)} />}
        </Field>
        <Field label="Personality" errors={errors.personality}>
          {(a11y) => (
            <select {...a11y} value={draft.personality} onChange={(e) => set('personality', e.currentTarget.value)}>
              {PERSONALITIES.map((personality) => (
                <option key={personality} value={personality}>
                  {PERSONALITY_WORDS[personality]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <CvImportSection
          onUse={(text, how) => {
            set('contextText', how === 'append' && draft.contextText.trim() ? `${draft.contextText.trimEnd()}\n\n${text}` : text);
            setStatus({ kind: 'success', text: 'The imported text is in the career context below: review it, then save your bot.' });
          }}
        />
        <Field
          label="Career context"
          // Over the limit, the counter already says what the server's length error would repeat.
          errors={left < 0 ? undefined : errors.contextText}
          hint={
            <span aria-live="polite" class={left < 0 ? 'over' : ''}>
              {left >= 0 ? `${left.toLocaleString('en')} characters left of 50,000.` : `${(-left).toLocaleString('en')} characters over the 50,000 limit.`}
            </span>
          }
        >
          {(a11y) => <textarea {...a11y} aria-invalid={left < 0 || a11y['aria-invalid']} rows={12} required value={draft.contextText} onInput={(e) => set('contextText', e.currentTarget.value)} />}
        </Field>
        <fieldset class="questions" ref={questions}>
          <legend>Suggested questions</legend>
          <p class="hint">Buttons a visitor can press to start. At most 6, up to 200 characters each.</p>
          {draft.suggestedQuestions.map((question, index) => (
            <div class="question-row" key={index}>
              <Field label={`Question ${index + 1}`}>
                {(a11y) => (
                  <input
                    {...a11y}
                    maxLength={200}
                    value={question}
                    onInput={(e) => set('suggestedQuestions', draft.suggestedQuestions.map((q, i) => (i === index ? e.currentTarget.value : q)))}
                  />
                )}
              </Field>
              <button
                type="button"
                onClick={() => {
                  set('suggestedQuestions', draft.suggestedQuestions.filter((_, i) => i !== index));
                  setFocusQuestion(index);
                }}
              >
                Remove question {index + 1}
              </button>
            </div>
          ))}
          {errors.suggestedQuestions && <p class="error">{errors.suggestedQuestions.join(' ')}</p>}
          <button
            type="button"
            class="add-question"
            disabled={draft.suggestedQuestions.length >= QUESTIONS_MAX}
            onClick={() => {
              set('suggestedQuestions', [...draft.suggestedQuestions, '']);
              setFocusQuestion(draft.suggestedQuestions.length);
            }}
          >
            Add a question
          </button>
          <p class="hint" aria-live="polite">
            {draft.suggestedQuestions.length} of {QUESTIONS_MAX} questions.
          </p>
        </fieldset>
        <Field label="LLM provider" errors={errors.llmProvider} hint={providerHint(ownerKey, draft.llmProvider)}>
          {(a11y) => (
            <select {...a11y} value={draft.llmProvider} onChange={(e) => set('llmProvider', e.currentTarget.value)}>
              {LLM_PROVIDERS.map((provider) => (
                <option key={provider} value={provider}>
                  {PROVIDER_NAMES[provider]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={draft.llmProvider === 'azure' ? 'Deployment name' : 'Model (optional)'}
          errors={errors.llmModel}
          hint={draft.llmProvider === 'azure' ? 'Required for Azure OpenAI: the name of your deployment.' : `Default for ${PROVIDER_NAMES[draft.llmProvider]}: ${defaultModel}.`}
        >
          {(a11y) => (
            <input {...a11y} maxLength={60} placeholder={defaultModel ?? ''} value={draft.llmModel} onInput={(e) => set('llmModel', e.currentTarget.value)} />
          )}
        </Field>
        {status && <Alert kind={status.kind}>{status.text}</Alert>}
        {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. */}
        <button class="primary" type="submit" aria-disabled={busy}>
          {busy ? 'Saving…' : 'Save bot'}
        </button>
      </form>
    </>
  );
};
