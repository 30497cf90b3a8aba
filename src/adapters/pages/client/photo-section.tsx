import { useRef, useState } from 'preact/hooks';
import { api, NETWORK_ERROR, uploadFile } from './api.ts';
import { Alert, Field, useFocusAfterDraw } from './fields.tsx';

/**
 * The bot's avatar: a photo (re-encoded by the service, at most 512 px square, without its
 * metadata) or, without one, the initials.
 */
export const PhotoSection = (p: { image: string }) => {
  const [image, setImage] = useState(p.image);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const hasPhoto = image.endsWith('.webp');
  // Remove photo leaves with the photo: the keyboard focus goes to the file field, to choose another.
  const section = useRef<HTMLFieldSetElement>(null);
  const focusFileField = useFocusAfterDraw<true>(() => section.current?.querySelector<HTMLInputElement>('input[type="file"]'));

  const upload = async () => {
    if (busy) return;
    if (!file) return setStatus({ kind: 'error', text: 'Choose a photo first.' });
    setBusy(true);
    setStatus(null);
    try {
      const answer = await uploadFile<{ image: string }>('/api/bots/avatar', file);
      if (answer.ok && answer.body) {
        setImage(answer.body.image);
        setStatus({ kind: 'success', text: 'Your photo is the avatar now.' });
      } else setStatus({ kind: 'error', text: answer.body?.error ? `${answer.body.error}.` : 'The photo could not be uploaded. Please try again.' });
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await api('/api/bots/avatar', { method: 'DELETE' });
      if (answer.status === 204) {
        setImage(image.replace(/\/[0-9a-f]{64}\.webp$/, '.svg'));
        setStatus({ kind: 'success', text: 'The photo was removed: your initials are the avatar again.' });
        focusFileField(true);
      } else setStatus({ kind: 'error', text: 'The photo could not be removed. Please try again.' });
    } catch {
      setStatus({ kind: 'error', text: NETWORK_ERROR });
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset class="card photo" ref={section}>
      <legend>Photo</legend>
      <div class="photo-row">
        <img class="avatar" src={image} alt={hasPhoto ? 'Your photo, as the avatar' : 'Your initials, as the avatar'} width={64} height={64} />
        <div class="grow">
          <Field label="Photo file" hint="PNG, JPEG or WebP, up to 5 MB. It is cropped to a square around its centre, at most 512 px, and its metadata (such as a GPS position) is removed.">
            {(a11y) => <input {...a11y} type="file" accept="image/png,image/jpeg,image/webp" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />}
          </Field>
          {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. */}
          <div class="actions">
            <button type="button" onClick={upload} aria-disabled={busy}>
              Upload photo
            </button>
            {hasPhoto && (
              <button type="button" onClick={remove} aria-disabled={busy}>
                Remove photo
              </button>
            )}
          </div>
        </div>
      </div>
      {status && <Alert kind={status.kind}>{status.text}</Alert>}
    </fieldset>
  );
};
