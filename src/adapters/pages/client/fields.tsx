import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/** What the API enforces on a password: bytes of UTF-8, not characters. */
export const PASSWORD_HINT = '8 to 72 bytes: up to 72 plain letters, fewer with accents or emoji.';

/** A labelled control with its hint and its errors, tied together for screen readers. */
export const Field = (p: {
  label: string;
  errors?: string[] | undefined;
  hint?: ComponentChildren;
  children: (a11y: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren;
}) => {
  const id = useId();
  const described = [p.hint ? `${id}-hint` : '', p.errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      {p.children({ id, 'aria-describedby': described || undefined, 'aria-invalid': p.errors?.length ? true : undefined })}
      {p.hint && (
        <p class="hint" id={`${id}-hint`}>
          {p.hint}
        </p>
      )}
      {p.errors?.length === 1 ? (
        <p class="error" id={`${id}-error`}>
          {p.errors[0]}
        </p>
      ) : p.errors?.length ? (
        <ul class="error" id={`${id}-error`}>
          {p.errors.map((error, index) => (
            <li key={index}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
};

/** A message for the whole form or page, announced when it appears. */
export const Alert = (p: { kind?: 'error' | 'success' | 'info'; children: ComponentChildren }) => (
  <div class={`alert ${p.kind ?? 'error'}`} role={p.kind === 'error' || !p.kind ? 'alert' : 'status'}>
    {p.children}
  </div>
);

/**
 * Moves the keyboard focus, once the next render is drawn, to the element `find` picks for the
 * target given: a pressed button that is replaced or removed as it is pressed drops the focus to the
 * page, and a keyboard user starts again from the top.
 */
export const useFocusAfterDraw = <T,>(find: (target: T) => HTMLElement | null | undefined) => {
  const [target, setTarget] = useState<T | null>(null);
  useEffect(() => {
    if (target === null) return;
    setTarget(null);
    find(target)?.focus();
  }, [target]);
  return setTarget;
};

/**
 * A destructive action asked twice: its button opens a question, with the button that does it and a
 * way back. Each button is replaced as it is pressed, so the keyboard focus follows: onto the way back
 * as the question opens (Enter pressed twice does nothing destructive), back onto the action's button
 * as it closes. After the action the caller moves the focus: to what took its place, or back to the
 * action's button (its data-focus is "action") when it failed.
 */
export const ConfirmAction = (p: {
  asking: boolean;
  onAsk: () => void;
  onBack: () => void;
  onConfirm: () => void;
  /** The action's button: its text, its accessible name when another, and its class. */
  action: string;
  actionName?: string;
  actionClass?: string;
  /** The question's accessible name, and what it says. */
  question: string;
  warning: string;
  confirm: string;
  back: string;
}) => {
  const root = useRef<HTMLSpanElement>(null);
  const focus = useFocusAfterDraw<'back' | 'action'>((part) => root.current?.querySelector<HTMLElement>(`[data-focus="${part}"]`));
  return (
    <span ref={root}>
      {p.asking ? (
        <span class="confirm" role="group" aria-label={p.question}>
          <span>{p.warning}</span>{' '}
          <button type="button" class="danger" onClick={p.onConfirm}>
            {p.confirm}
          </button>{' '}
          <button
            type="button"
            data-focus="back"
            onClick={() => {
              p.onBack();
              focus('action');
            }}
          >
            {p.back}
          </button>
        </span>
      ) : (
        <button
          type="button"
          class={p.actionClass}
          data-focus="action"
          aria-label={p.actionName}
          onClick={() => {
            p.onAsk();
            focus('back');
          }}
        >
          {p.action}
        </button>
      )}
    </span>
  );
};
