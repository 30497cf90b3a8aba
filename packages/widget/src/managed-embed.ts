/**
 * The managed embed, served as /widget.js:
 *
 *   <script src="https://<platform>/widget.js" data-bot-id="<botId>" async></script>
 *
 * It draws a launcher button and, when it is pressed, a dialog holding a frame of the platform's
 * embed page (/embed/{botId}), where the whole chat runs: the visitor's key field, its storage
 * and the chat requests live on the platform's origin, so no script of the host page can read
 * them. This script holds nothing secret. It speaks to the frame by postMessage, only with the
 * platform's origin and only with its own frame: `open` (move focus into the chat) one way,
 * `ready` and `close` the other; focus comes back to the launcher on close. At full screen the
 * dialog is modal: Tab leaving the frame at one end lands on the dialog's edge there, and the
 * host says `focus-first` or `focus-last` so the chat takes it at its other end. An unknown or
 * inactive bot renders nothing and says so once in the console.
 */
import { own, text } from './json-fields.ts';
import { adoptStyles, el, modalAtFullScreen, setAccent, widgetHost } from './widget-dom.ts';
import { EMBED_HOST_CSS } from './embed-host-css.ts';

const script =
  (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[data-bot-id][src*="/widget.js"]');

const start = async (tag: HTMLScriptElement) => {
  const botId = tag.getAttribute('data-bot-id') ?? '';
  const platform = new URL(tag.src, location.href).origin;
  const unavailable = () => console.warn(`[careerbot] bot "${botId}" is not available (unknown or switched off): the chat widget is not shown.`);
  let view: unknown;
  try {
    const response = await fetch(`${platform}/api/bots/${encodeURIComponent(botId)}/public`, { credentials: 'omit' });
    if (!response.ok) return unavailable();
    view = await response.json();
  } catch {
    return unavailable();
  }
  const name = text(view, 'name') ?? 'Career bot';
  const image = text(view, 'image');

  const host = widgetHost();
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, EMBED_HOST_CSS);
  setAccent(host, text(view, 'themeColor'));

  const avatar = el('img', { class: 'avatar', alt: '', width: '32', height: '32' });
  if (image) avatar.setAttribute('src', new URL(image, platform).toString());
  else avatar.hidden = true;
  const launcher = el(
    'button',
    { type: 'button', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': 'careerbot-dialog' },
    avatar,
    el('span', {}, `Chat with ${name}`),
  );
  const dialog = el('div', { id: 'careerbot-dialog', class: 'dialog', role: 'dialog', 'aria-modal': 'false', 'aria-label': name, hidden: '' });
  root.append(launcher, dialog);

  let frame: HTMLIFrameElement | null = null;
  let ready = false;
  const toFrame = (type: 'open' | 'focus-first' | 'focus-last') => frame?.contentWindow?.postMessage({ type: `careerbot:${type}` }, platform);

  // Covering the page, the dialog is modal; beside it, the host page stays in reach.
  modalAtFullScreen(dialog);
  /** Focusable at full screen only (the stylesheet hides it otherwise): the focus that lands here goes back into the chat. */
  const edge = (wrapTo: 'first' | 'last') => {
    const span = el('span', { class: 'edge', tabindex: '0' });
    span.addEventListener('focus', () => {
      if (!frame || !ready) return;
      frame.focus();
      toFrame(`focus-${wrapTo}`);
    });
    return span;
  };
  // Shift+Tab from the chat's first control lands before the frame; Tab from its last, after it.
  const before = edge('last');
  dialog.append(before, edge('first'));

  const open = () => {
    if (!frame) {
      // Made at the first open: a visitor who never chats loads no chat.
      const src = `${platform}/embed/${encodeURIComponent(botId)}?host=${encodeURIComponent(location.origin)}`;
      frame = el('iframe', { src, title: `Chat with ${name}`, referrerpolicy: 'origin' });
      before.after(frame);
    }
    dialog.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    host.setAttribute('data-open', '');
    frame.focus();
    if (ready) toFrame('open');
  };
  const close = () => {
    if (dialog.hidden) return;
    dialog.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    host.removeAttribute('data-open');
    launcher.focus();
  };

  window.addEventListener('message', (event) => {
    if (!frame || event.origin !== platform || event.source !== frame.contentWindow) return;
    const type = own(event.data, 'type');
    if (type === 'careerbot:ready') {
      ready = true;
      if (!dialog.hidden) toFrame('open');
    } else if (type === 'careerbot:close') close();
  });
  launcher.addEventListener('click', () => (dialog.hidden ? open() : close()));
  // Esc on the host page's side of the dialog; inside the frame, the chat says `close`.
  root.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape' && !dialog.hidden) {
      event.stopPropagation();
      close();
    }
  });
  document.body.append(host);
};

if (script) void start(script);
else console.warn('[careerbot] widget.js needs a data-bot-id attribute on its script tag.');
