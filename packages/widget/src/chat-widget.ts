/**
 * The chat widget both embeds share: a launcher button and a chat dialog inside a Shadow
 * DOM, so the host page's CSS cannot reach in and ours cannot leak out. Plain DOM, no
 * framework: every text goes in through `textContent`, so nothing a bot, a visitor or the
 * host page says can become markup.
 */
import { WIDGET_CSS } from './widget-css.ts';
import { renderMarkdown, REPLY_ENDINGS, replyText } from './chat-reply.ts';
import { tabStorage } from './tab-storage.ts';
import { parseTranscript, type Turn } from './transcript.ts';
import { adoptStyles, el, modalAtFullScreen, setAccent, widgetHost } from './widget-dom.ts';

export type { Turn } from './transcript.ts';

/** A failed answer, in words for the visitor. */
export interface Problem {
  text: string;
  /** Offer to send the same message again. */
  retry?: boolean;
  /** The key was refused or missing: ask for it again. */
  askKey?: boolean;
}

/**
 * A reply whole, or as it is written (`stream` yields the pieces; they joined are the reply, and
 * a stream that throws midway ends it with `broken`'s problem). Stop leaves the stream early.
 */
export type Answer = { ok: true; reply: string } | { ok: true; stream: AsyncIterable<string>; broken?: Problem } | ({ ok: false } & Problem);

export interface Look {
  name: string;
  headline?: string | null;
  avatarUrl?: string | null;
  themeColor?: string | null;
  suggestedQuestions?: readonly string[];
  loadingMessages?: readonly string[];
}

/** The managed widget asks the visitor for their provider key; the self-hosted one never does. */
export interface KeyRequest {
  label: string;
  hint: string;
  storageKey: string;
  /** The owner's key answers: the field is offered folded away, and a message may go without a key. */
  optional?: boolean;
  endpoint?: { label: string; hint: string; storageKey: string };
}

export interface Credentials {
  key: string;
  endpoint: string;
}

export interface WidgetParts {
  look: Look;
  /** sessionStorage key of this bot's transcript: a reload finds the conversation again. */
  transcriptKey: string;
  /** Where the widget's element goes (its launcher and dialog are fixed to the screen). */
  container?: HTMLElement;
  keyRequest?: KeyRequest;
  answer: (question: string, turns: readonly Turn[], credentials: Credentials, signal: AbortSignal) => Promise<Answer>;
  /** After each completed turn (question and reply), with the whole transcript. */
  afterTurn?: (turns: readonly Turn[]) => void;
  /**
   * The chat is the whole page (the managed widget's frame): always open, no launcher of its own;
   * closing (the close button, Esc) asks the host page to hide the frame.
   */
  framed?: { close(): void };
  /** Offer a short e-mail form once the bot has answered `afterReplies` times. */
  lead?: { afterReplies: number; submit: (email: string) => Promise<boolean> };
}

export interface MountedWidget {
  open(): void;
  close(): void;
  /**
   * Focuses the dialog's first control (Close) or its last (Send): the managed widget's host page
   * keeps Tab inside its frame while the frame covers the page.
   */
  focusEdge(edge: 'first' | 'last'): void;
  /** Updates the look (e.g. once the platform's configuration arrives). */
  setLook(look: Partial<Look>): void;
  destroy(): void;
}

/** The self-hosted widgets offer the e-mail form after this many replies. */
export const LEAD_AFTER_REPLIES = 2;

const DEFAULT_LOADING = ['Thinking…'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

let instances = 0;

export const renderChatWidget = (parts: WidgetParts): MountedWidget => {
  const id = `careerbot-${++instances}`;
  let look: Look = { ...parts.look };
  const storage = tabStorage();
  let turns: Turn[] = parseTranscript(storage.get(parts.transcriptKey)).map(({ role, content }) => ({ role, content }));
  let waiting = false;
  let lastProblem: (Problem & { question: string }) | null = null;
  let leadOffered = false;
  /** Set once the visitor sent an e-mail or said no: the form is not offered again in this tab. */
  const leadDoneKey = `${parts.transcriptKey}:lead`;
  /** The question on its way: a reload before its answer puts it back in the field instead of losing it. */
  const askingKey = `${parts.transcriptKey}:asking`;

  const host = widgetHost();
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, WIDGET_CSS);
  if (parts.framed) host.setAttribute('data-framed', '');

  const launcherText = el('span', { class: 'launcher-text' });
  const launcherAvatar = el('img', { class: 'avatar', alt: '', width: '32', height: '32' });
  const launcher = el('button', { type: 'button', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': `${id}-dialog` }, launcherAvatar, launcherText);

  const title = el('h2', { id: `${id}-title`, class: 'title' });
  const headline = el('p', { class: 'headline' });
  const avatar = el('img', { class: 'avatar', alt: '', width: '40', height: '40' });
  const closeButton = el('button', { type: 'button', class: 'close', 'aria-label': 'Close chat' }, '×');
  const header = el('div', { class: 'header' }, avatar, el('div', { class: 'who' }, title, headline), closeButton);

  // Said once, where the chat starts: without storage, nothing survives a reload.
  const forgetful = el('p', { class: 'notice', hidden: '' }, 'Your browser keeps nothing from this chat: reloading the page starts over.');
  const renderKept = () => (forgetful.hidden = storage.kept);

  const keyInput = el('input', { id: `${id}-key`, type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const endpointInput = el('input', { id: `${id}-endpoint`, type: 'url', autocomplete: 'off' });
  // A form of its own (never submitted): the browser expects a password field inside one.
  const keyBox = el('form', { class: 'key' });
  keyBox.addEventListener('submit', (event) => event.preventDefault());
  const keyRequired = () => !!parts.keyRequest && !parts.keyRequest.optional;
  if (parts.keyRequest) {
    const request = parts.keyRequest;
    keyInput.value = storage.get(request.storageKey) ?? '';
    keyInput.setAttribute('aria-describedby', `${id}-key-hint`);
    keyBox.append(el('label', { for: keyInput.id }, request.label), keyInput, el('p', { id: `${id}-key-hint`, class: 'hint' }, request.hint));
    if (request.endpoint) {
      endpointInput.value = storage.get(request.endpoint.storageKey) ?? '';
      endpointInput.setAttribute('aria-describedby', `${id}-endpoint-hint`);
      keyBox.append(
        el('label', { for: endpointInput.id }, request.endpoint.label),
        endpointInput,
        el('p', { id: `${id}-endpoint-hint`, class: 'hint' }, request.endpoint.hint),
      );
    }
    if (request.optional) {
      const fields = Array.from(keyBox.childNodes);
      keyBox.append(el('details', {}, el('summary', {}, 'Use your own API key'), ...fields));
    }
    keyInput.addEventListener('input', () => storage.set(request.storageKey, keyInput.value.trim()));
    endpointInput.addEventListener('input', () => request.endpoint && storage.set(request.endpoint.storageKey, endpointInput.value.trim()));
  }

  // Not live: every word would be read out. The finished reply is announced once, by `announcer`.
  const log = el('div', { class: 'log', role: 'log', 'aria-live': 'off', 'aria-label': 'Conversation', tabindex: '0' });
  const announcer = el('div', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const problemBox = el('div', { class: 'problem', role: 'alert' });
  const suggestions = el('div', { class: 'suggestions', role: 'group', 'aria-label': 'Suggested questions' });
  const messageInput = el('textarea', { id: `${id}-message`, rows: '2', maxlength: '8000' });
  const unanswered = storage.get(askingKey);
  if (unanswered) {
    messageInput.value = unanswered;
    storage.set(askingKey, null);
  }
  const sendButton = el('button', { type: 'submit', class: 'send' }, 'Send');
  const startOverButton = el('button', { type: 'button', class: 'plain start-over', hidden: '' }, 'Start over');
  const form = el('form', { class: 'compose' }, el('label', { for: messageInput.id, class: 'visually-hidden' }, 'Your message'), messageInput, sendButton);

  const leadEmail = el('input', { id: `${id}-lead`, type: 'email', autocomplete: 'email' });
  const leadStatus = el('p', { class: 'hint', role: 'status' });
  const leadForm = el(
    'form',
    { class: 'lead', hidden: '' },
    el('p', {}, ''),
    el(
      'div',
      { class: 'lead-fields' },
      el('label', { for: leadEmail.id }, 'Your e-mail'),
      el('div', { class: 'row' }, leadEmail, el('button', { type: 'submit', class: 'send' }, 'Send e-mail'), el('button', { type: 'button', class: 'plain' }, 'No thanks')),
    ),
    leadStatus,
  );

  const dialog = el(
    'div',
    { id: `${id}-dialog`, class: 'dialog', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': title.id, hidden: '' },
    header,
    forgetful,
    keyBox,
    log,
    startOverButton,
    announcer,
    problemBox,
    suggestions,
    ...(parts.lead ? [leadForm] : []),
    form,
  );
  // Framed, the chat is the whole page and the host page draws the launcher.
  root.append(...(parts.framed ? [] : [launcher]), dialog);

  const bubble = (turn: Turn) => {
    const speaker = el('span', { class: 'visually-hidden' }, turn.role === 'user' ? 'You: ' : `${look.name}: `);
    // A reply's markdown becomes DOM nodes (renderMarkdown); a visitor's words stay plain text.
    return el('div', { class: `bubble ${turn.role}` }, speaker, turn.role === 'assistant' ? renderMarkdown(turn.content) : turn.content);
  };

  /** Start over is offered once there is a conversation, and not while a reply is awaited. */
  const renderStartOver = () => (startOverButton.hidden = !turns.length || waiting);

  const renderLog = (loading: string | null) => {
    log.replaceChildren(...turns.map(bubble));
    if (!turns.length && !loading) log.append(el('p', { class: 'empty' }, `Ask ${look.name} a question${look.suggestedQuestions?.length ? ', or pick one below' : ''}.`));
    if (loading) log.append(el('div', { class: 'bubble assistant waiting', role: 'status' }, loading));
    log.scrollTop = log.scrollHeight;
    renderStartOver();
  };

  const renderProblem = () => {
    problemBox.replaceChildren();
    if (!lastProblem) return;
    problemBox.append(el('span', {}, lastProblem.text));
    if (lastProblem.retry) {
      const retry = el('button', { type: 'button', class: 'plain' }, 'Retry');
      retry.addEventListener('click', () => lastProblem && void send(lastProblem.question));
      problemBox.append(' ', retry);
    }
  };

  const renderLook = () => {
    const name = look.name;
    launcherText.textContent = `Chat with ${name}`;
    title.textContent = name;
    headline.textContent = look.headline ?? '';
    headline.hidden = !look.headline;
    for (const image of [avatar, launcherAvatar]) {
      if (look.avatarUrl) image.setAttribute('src', look.avatarUrl);
      image.hidden = !look.avatarUrl;
    }
    setAccent(host, look.themeColor);
    suggestions.replaceChildren(
      ...(look.suggestedQuestions ?? []).map((question) => {
        const button = el('button', { type: 'button', class: 'chip' }, question);
        button.addEventListener('click', () => void send(question));
        return button;
      }),
    );
    suggestions.hidden = !(look.suggestedQuestions ?? []).length;
    (leadForm.firstChild as HTMLElement).textContent = `Leave your e-mail address and ${name} can get back to you.`;
  };

  const setBusy = (busy: boolean) => {
    waiting = busy;
    // While a reply is awaited or written, Send is Stop.
    sendButton.textContent = busy ? 'Stop' : 'Send';
    renderStartOver();
    for (const chip of Array.from(suggestions.querySelectorAll('button'))) chip.setAttribute('aria-disabled', String(busy));
  };

  const offerLead = () => {
    const lead = parts.lead;
    if (!lead || leadOffered || storage.get(leadDoneKey) || turns.filter((turn) => turn.role === 'assistant').length < lead.afterReplies) return;
    leadOffered = true;
    leadForm.hidden = false;
  };

  let stopper: AbortController | null = null;

  startOverButton.addEventListener('click', () => {
    turns = [];
    storage.set(parts.transcriptKey, null);
    lastProblem = null;
    renderProblem();
    renderLog(null);
    messageInput.focus();
  });

  /**
   * Reads a streamed reply into a bubble of its own as it comes: what arrived, whether it all did
   * (not stopped, not broken), and whether it broke.
   */
  const readStream = async (stream: AsyncIterable<string>, stop: AbortSignal) => {
    const live = el('div', { class: 'bubble assistant' });
    renderLog(null);
    log.append(live);
    let text = '';
    try {
      for await (const piece of stream) {
        if (stop.aborted) break;
        text += piece;
        live.replaceChildren(renderMarkdown(text));
        log.scrollTop = log.scrollHeight;
      }
    } catch {
      return { text, whole: false, broken: !stop.aborted };
    }
    return { text, whole: !stop.aborted, broken: false };
  };

  async function send(text: string) {
    const question = text.trim();
    if (!question || waiting) return;
    const credentials = { key: keyInput.value.trim(), endpoint: endpointInput.value.trim() };
    if (keyRequired() && !credentials.key) {
      lastProblem = { text: `${parts.keyRequest?.label} first, please.`, askKey: true, question };
      renderProblem();
      keyInput.focus();
      return;
    }
    lastProblem = null;
    renderProblem();
    messageInput.value = '';
    storage.set(askingKey, question);
    turns = [...turns, { role: 'user', content: question }];
    const loading = look.loadingMessages?.length ? look.loadingMessages : DEFAULT_LOADING;
    renderLog(loading[Math.floor(Math.random() * loading.length)]!);
    setBusy(true);
    const stop = new AbortController();
    stopper = stop;
    let answer: Answer;
    try {
      answer = await parts.answer(question, turns.slice(0, -1), credentials, stop.signal);
    } catch {
      answer = stop.signal.aborted ? { ok: false, text: 'Stopped.' } : { ok: false, text: 'The chat could not be reached. Please retry.', retry: true };
    }
    let reply = answer.ok && 'reply' in answer ? answer.reply : '';
    if (answer.ok && 'stream' in answer) {
      const streamed = await readStream(answer.stream, stop.signal);
      if (streamed.broken && answer.broken) lastProblem = { ...answer.broken, question };
      // The visitor's Stop and the provider's failure midway read differently (as on the owner's pages).
      const cut = streamed.broken ? REPLY_ENDINGS.interrupted : REPLY_ENDINGS.stopped;
      reply = streamed.text.trim() ? streamed.text + (streamed.whole ? '' : cut) : '';
      if (!reply) answer = { ok: false, ...(answer.broken ?? { text: 'The bot gave no answer. Please retry.', retry: true }) };
    }
    stopper = null;
    setBusy(false);
    storage.set(askingKey, null);
    if (answer.ok) {
      // What the visitor reads, not the markdown's signs.
      announcer.textContent = replyText(reply);
      turns = [...turns, { role: 'assistant', content: reply }];
      storage.set(parts.transcriptKey, JSON.stringify(turns));
      renderKept();
      // The problem first (a reply cut off keeps its words and says why): the log, shorter, then scrolls to its end.
      renderProblem();
      renderLog(null);
      try {
        parts.afterTurn?.(turns);
      } catch {
        // Saving the transcript elsewhere never breaks the chat.
      }
      offerLead();
      messageInput.focus();
      return;
    }
    // The question got no answer: it leaves the log and goes back into the field.
    turns = turns.slice(0, -1);
    renderLog(null);
    if (!messageInput.value) messageInput.value = question;
    // The visitor's own Stop needs no words: the question is back in the field, as on the owner's pages.
    lastProblem = stop.signal.aborted ? null : { text: answer.text, retry: answer.retry, askKey: answer.askKey, question };
    renderProblem();
    if (answer.askKey && parts.keyRequest) {
      keyInput.value = '';
      storage.set(parts.keyRequest.storageKey, null);
      keyBox.querySelector('details')?.setAttribute('open', '');
      keyInput.focus();
    } else messageInput.focus();
  }

  const open = () => {
    dialog.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    host.setAttribute('data-open', '');
    // A reply being written keeps its bubble.
    if (!waiting) renderLog(null);
    (keyRequired() && !keyInput.value ? keyInput : messageInput).focus();
  };
  const close = () => {
    if (parts.framed) return parts.framed.close();
    dialog.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    host.removeAttribute('data-open');
    launcher.focus();
  };

  launcher.addEventListener('click', () => (dialog.hidden ? open() : close()));
  closeButton.addEventListener('click', close);
  // On the page (not framed), below 480 px the dialog covers it: modal, and Tab wraps inside it.
  // Framed, the host page's dialog is the modal one.
  const fullScreen = parts.framed ? null : modalAtFullScreen(dialog);
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab' && fullScreen?.matches) {
      // Tab from Send wraps to Close, Shift+Tab from Close to Send.
      const [leaving, wrapTo] = event.shiftKey ? [closeButton, sendButton] : [sendButton, closeButton];
      if (root.activeElement !== leaving) return;
      event.preventDefault();
      wrapTo.focus();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (stopper) stopper.abort();
    else void send(messageInput.value);
  });
  messageInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send(messageInput.value);
    }
  });
  leadForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const email = leadEmail.value.trim();
    if (!EMAIL.test(email)) {
      leadStatus.textContent = 'Please enter a valid e-mail address.';
      leadEmail.focus();
      return;
    }
    leadStatus.textContent = 'Sending…';
    void parts.lead!.submit(email).then(
      (saved) => {
        leadStatus.textContent = saved ? `Thank you: ${look.name} will get back to you.` : 'Your e-mail could not be sent. Please try again later.';
        if (saved) {
          leadForm.querySelector('.lead-fields')?.remove();
          storage.set(leadDoneKey, 'done');
        }
      },
      () => (leadStatus.textContent = 'Your e-mail could not be sent. Please try again later.'),
    );
  });
  leadForm.querySelector('button.plain')!.addEventListener('click', () => {
    leadForm.hidden = true;
    storage.set(leadDoneKey, 'done');
    messageInput.focus();
  });

  renderLook();
  renderLog(null);
  renderKept();
  if (turns.some((turn) => turn.role === 'assistant')) offerLead();
  (parts.container ?? document.body).append(host);
  if (parts.framed) dialog.hidden = false;

  return {
    open,
    close,
    focusEdge: (edge) => (edge === 'first' ? closeButton : sendButton).focus(),
    setLook(next) {
      look = { ...look, ...next };
      renderLook();
      // The empty log's words name the bot and its suggestions, which may have just arrived.
      if (!waiting && !turns.length) renderLog(null);
    },
    destroy: () => host.remove(),
  };
};
