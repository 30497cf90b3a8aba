import { useEffect, useRef, useState } from 'preact/hooks';
import { chatProblem, PROVIDER_NAMES, REPLY_CUT_OFF, type ChatProblem } from '@careerbot/widget/chat-problems';
import { parseTranscript, readChatEvents, renderMarkdown, REPLY_ENDINGS, replyText, type KeptTurn } from '@careerbot/widget/chat-reply';
import { Field } from './fields.tsx';

const keyStorage = (provider: string) => `careerbot:llm-key:${provider}`;
const ENDPOINT_STORAGE = 'careerbot:azure-endpoint';

/** The visitor's key lives in this tab's sessionStorage only: never localStorage, a cookie or a URL. */
const stored = (name: string) => {
  try {
    return sessionStorage.getItem(name) ?? '';
  } catch {
    return '';
  }
};
const store = (name: string, value: string) => {
  try {
    if (value) sessionStorage.setItem(name, value);
    else sessionStorage.removeItem(name);
  } catch {
    // Storage refused (private mode): the key lives in the field only.
  }
};

interface Turn {
  role: 'visitor' | 'bot';
  text: string;
  /** A bot reply still being written, one the visitor stopped, or one the provider cut off. */
  state?: 'streaming' | 'stopped' | 'interrupted';
}

/**
 * The conversation as the tab keeps it, at every change: a reply still being written is kept as
 * far as it got, marked interrupted, since a reload ends it; a question still waiting is kept too.
 */
const keptTurns = (turns: readonly Turn[]): KeptTurn[] =>
  turns
    .filter((turn) => turn.state !== 'streaming' || turn.text)
    .map(({ role, text, state }) => ({
      role: role === 'visitor' ? 'user' : 'assistant',
      content: text,
      ...(state === 'streaming' ? { ending: 'interrupted' as const } : state ? { ending: state } : {}),
    }));

/** The kept conversation, and the question that a reload left without an answer, to ask again. */
const shownTurns = (kept: readonly KeptTurn[]): { turns: Turn[]; unanswered: string } => {
  const turns: Turn[] = kept.map((turn) => ({ role: turn.role === 'user' ? 'visitor' : 'bot', text: turn.content, ...(turn.ending ? { state: turn.ending } : {}) }));
  const unanswered = turns.at(-1)?.role === 'visitor' ? turns.pop()!.text : '';
  return { turns, unanswered };
};

/** A reply drawn from its markdown as DOM nodes (never markup from its text); the server paints it as text. */
const ReplyText = (p: { text: string }) => {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.replaceChildren(renderMarkdown(p.text));
  }, [p.text]);
  return (
    <div class="reply-text" ref={box}>
      {p.text}
    </div>
  );
};

export const ChatPanel = (p: {
  botId: string;
  botName: string;
  provider: string;
  suggestedQuestions: string[];
  loadingMessages: string[];
  /** The owner's key answers: no key is asked for, and the visitor may still give their own. */
  ownerKeyAnswers?: boolean;
  /** Where this tab keeps the conversation, so that a reload finds it again. */
  transcriptKey: string;
}) => {
  const [ownKeyOpen, setOwnKeyOpen] = useState(false);
  const providerName = PROVIDER_NAMES[p.provider] ?? p.provider;
  const [key, setKey] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [message, setMessage] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [waiting, setWaiting] = useState<string | null>(null);
  /** From sending until the reply is whole or stopped: Send waits, Stop shows. */
  const [streaming, setStreaming] = useState(false);
  const [problem, setProblem] = useState<(ChatProblem & { message: string }) | null>(null);
  /** The finished reply, announced once by the live region (not word by word). */
  const [announced, setAnnounced] = useState('');
  const stop = useRef<AbortController | null>(null);
  const keyInput = useRef<HTMLInputElement>(null);
  const messageInput = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);

  // Read once the page is live: the server's first paint has no storage, and hydration must match it.
  useEffect(() => {
    setKey(stored(keyStorage(p.provider)));
    setEndpoint(stored(ENDPOINT_STORAGE));
  }, [p.provider]);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const shown = shownTurns(parseTranscript(stored(p.transcriptKey)));
    setTurns(shown.turns);
    if (shown.unanswered) setMessage((current) => current || shown.unanswered);
    setLoaded(true);
  }, [p.transcriptKey]);
  useEffect(() => {
    if (!loaded) return;
    const kept = keptTurns(turns);
    store(p.transcriptKey, kept.length ? JSON.stringify(kept) : '');
  }, [turns, loaded, p.transcriptKey]);

  const startOver = () => {
    setTurns([]);
    setProblem(null);
    setAnnounced('');
    messageInput.current?.focus();
  };

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [turns, waiting]);

  /** A message that got no answer leaves the log and goes back into the field, to edit or send again. */
  const unsent = (question: string) => {
    setTurns((current) => (current.at(-1)?.role === 'visitor' && current.at(-1)?.text === question ? current.slice(0, -1) : current));
    setMessage((current) => current || question);
  };

  const send = async (text: string) => {
    const question = text.trim();
    if (!question || stop.current) return;
    if (!key.trim() && !p.ownerKeyAnswers) {
      setProblem({ text: `Enter your ${providerName} API key first.`, askKey: true, message: question });
      keyInput.current?.focus();
      return;
    }
    setProblem(null);
    setMessage('');
    // Send turns into Stop and the suggestions wait: the focus would fall to the page, so it goes where the next question is typed.
    if (document.activeElement !== messageInput.current) messageInput.current?.focus();
    setTurns((current) => [...current, { role: 'visitor', text: question }]);
    const loading = p.loadingMessages.length ? p.loadingMessages[Math.floor(Math.random() * p.loadingMessages.length)]! : 'Thinking…';
    setWaiting(loading);
    setStreaming(true);
    let focusKey = false;
    const stopper = new AbortController();
    stop.current = stopper;
    /** Changes the reply being written (the last turn). */
    const updateReply = (change: (turn: Turn) => Turn) =>
      setTurns((current) => (current.at(-1)?.role === 'bot' ? [...current.slice(0, -1), change(current.at(-1)!)] : current));
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
      if (key.trim()) headers['x-llm-api-key'] = key.trim();
      if (p.provider === 'azure' && key.trim()) headers['x-llm-azure-endpoint'] = endpoint.trim();
      const response = await fetch(`/api/chat/${encodeURIComponent(p.botId)}`, {
        method: 'POST',
        headers,
        credentials: 'omit',
        body: JSON.stringify({ message: question }),
        signal: stopper.signal,
      });
      if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
        setWaiting(null);
        setTurns((current) => [...current, { role: 'bot', text: '', state: 'streaming' }]);
        let finished = false;
        try {
          for await (const event of readChatEvents(response.body)) {
            if (event.type === 'delta') updateReply((turn) => ({ ...turn, text: turn.text + event.text }));
            else if (event.type === 'done') {
              finished = true;
              updateReply((turn) => ({ role: turn.role, text: event.reply }));
              setAnnounced(replyText(event.reply));
            } else {
              finished = true;
              updateReply((turn) => ({ ...turn, state: 'interrupted' }));
              setProblem({ ...(event.error === 'provider_unavailable' ? REPLY_CUT_OFF : chatProblem(502, { error: event.error })), message: question });
            }
          }
        } catch (error) {
          if (!stopper.signal.aborted) throw error;
        }
        if (!finished) updateReply((turn) => ({ ...turn, state: stopper.signal.aborted ? 'stopped' : 'interrupted' }));
        return;
      }
      const body = await response.json().catch(() => null);
      if (response.ok && typeof body?.reply === 'string') {
        setTurns((current) => [...current, { role: 'bot', text: body.reply }]);
        setAnnounced(replyText(body.reply));
      } else {
        const found = chatProblem(response.status, body);
        setProblem({ ...found, message: question });
        unsent(question);
        if (found.askKey) {
          setKey('');
          store(keyStorage(p.provider), '');
          setOwnKeyOpen(true);
          focusKey = true;
        }
      }
    } catch {
      if (stopper.signal.aborted) {
        unsent(question);
        return;
      }
      setProblem({ text: 'The service could not be reached. Please retry.', retry: true, message: question });
      unsent(question);
    } finally {
      stop.current = null;
      setStreaming(false);
      setWaiting(null);
      (focusKey ? keyInput : messageInput).current?.focus();
    }
  };

  const retry = () => {
    if (problem) void send(problem.message);
  };

  const keyFields = (
    // A form of its own (never submitted): the browser expects a password field inside one.
    <form onSubmit={(event) => event.preventDefault()}>
      <Field label={`Your ${providerName} API key`} hint={`${p.botName} answers through ${providerName}. Your key stays in this browser tab and is sent only with your messages.`}>
        {(a11y) => (
          <input
            {...a11y}
            ref={keyInput}
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={key}
            onInput={(event) => {
              setKey(event.currentTarget.value);
              store(keyStorage(p.provider), event.currentTarget.value.trim());
            }}
          />
        )}
      </Field>
      {p.provider === 'azure' && (
        <Field label="Your Azure OpenAI endpoint" hint="For example https://your-resource.openai.azure.com">
          {(a11y) => (
            <input
              {...a11y}
              type="url"
              autoComplete="off"
              value={endpoint}
              onInput={(event) => {
                setEndpoint(event.currentTarget.value);
                store(ENDPOINT_STORAGE, event.currentTarget.value.trim());
              }}
            />
          )}
        </Field>
      )}
    </form>
  );

  return (
    <section class="chat" aria-label={`Chat with ${p.botName}`}>
      {p.ownerKeyAnswers ? (
        <details class="chat-key own-key" open={ownKeyOpen} onToggle={(event) => setOwnKeyOpen(event.currentTarget.open)}>
          <summary>Use your own API key (optional)</summary>
          {keyFields}
        </details>
      ) : (
        <div class="chat-key">{keyFields}</div>
      )}
      {/* Each finished reply is announced once, here; the log itself is not live, or every word would be read. */}
      <div class="visually-hidden" role="status" aria-live="polite">
        {announced}
      </div>
      <div class="chat-log" ref={log} role="log" aria-live="off" aria-label="Conversation">
        {turns.length === 0 && <p class="muted">Ask {p.botName} a question, or pick one below.</p>}
        {turns.map((turn, index) => (
          <div key={index} class={`bubble ${turn.role}`}>
            <span class="visually-hidden">{turn.role === 'visitor' ? 'You: ' : `${p.botName}: `}</span>
            {turn.role === 'bot' ? <ReplyText text={turn.text} /> : turn.text}
            {(turn.state === 'stopped' || turn.state === 'interrupted') && <span class="muted small">{REPLY_ENDINGS[turn.state]}</span>}
          </div>
        ))}
        {waiting && (
          <div class="bubble bot waiting" role="status">
            {waiting}
          </div>
        )}
      </div>
      {turns.length > 0 && !streaming && (
        <button type="button" class="start-over" onClick={startOver}>
          Start over
        </button>
      )}
      {problem && (
        <div class="alert error chat-problem" role="alert">
          <span>{problem.text}</span>
          {problem.retry && (
            <button type="button" onClick={retry}>
              Retry
            </button>
          )}
        </div>
      )}
      {p.suggestedQuestions.length > 0 && (
        <div class="suggestions" role="group" aria-label="Suggested questions">
          {p.suggestedQuestions.map((question) => (
            <button key={question} type="button" class="chip" disabled={streaming} onClick={() => void send(question)}>
              {question}
            </button>
          ))}
        </div>
      )}
      <form
        class="chat-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send(message);
        }}
      >
        <Field label="Your message">
          {(a11y) => (
            <textarea
              {...a11y}
              ref={messageInput}
              rows={2}
              maxLength={8000}
              value={message}
              onInput={(event) => setMessage(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  void send(message);
                }
              }}
            />
          )}
        </Field>
        {streaming ? (
          // Its own element (key): were Preact to turn this button into Send while the click is
          // being handled, the click would submit the question that Stop just put back in the field.
          <button key="stop" type="button" class="stop" onClick={() => stop.current?.abort()}>
            Stop
          </button>
        ) : (
          <button key="send" class="primary" type="submit" disabled={!message.trim()}>
            Send
          </button>
        )}
      </form>
    </section>
  );
};

/** A bot's public page: its card and the chat. */
export interface PublicBotView {
  id: string;
  name: string;
  headline: string | null;
  image: string;
  suggestedQuestions: string[];
  loadingMessages: string[];
}

export const PublicChatPage = (p: { bot: PublicBotView; provider: string; ownerKeyAnswers?: boolean }) => (
  <main class="public-chat">
    <header class="bot-card">
      <img class="avatar" src={p.bot.image} alt="" width={56} height={56} />
      <div>
        <h1>{p.bot.name}</h1>
        {p.bot.headline && <p class="muted">{p.bot.headline}</p>}
      </div>
    </header>
    <ChatPanel
      botId={p.bot.id}
      botName={p.bot.name}
      provider={p.provider}
      suggestedQuestions={p.bot.suggestedQuestions}
      loadingMessages={p.bot.loadingMessages}
      ownerKeyAnswers={p.ownerKeyAnswers}
      transcriptKey={`careerbot:transcript:public:${p.bot.id}`}
    />
    <p class="muted small">
      Powered by <a href="/">Career Bot</a>
    </p>
  </main>
);
