import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';

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
