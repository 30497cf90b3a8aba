import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, formatDate, signOut } from './api.ts';

interface Notification {
  id: string;
  kind: 'conversation_started' | 'lead_captured' | string;
  payload: Record<string, unknown>;
  createdAt: string;
  readAt: string | null;
}

/** GET /api/notifications */
export interface NotificationList {
  items: Notification[];
  unreadCount: number;
}

const notificationWords = (item: Notification): string => {
  if (item.kind === 'lead_captured') return `New lead: ${String(item.payload.email ?? 'an e-mail address')}`;
  if (item.kind === 'conversation_started') return 'New conversation';
  if (item.kind === 'owner_key_cap_reached') return `Your key answered its ${String(item.payload.cap ?? 'daily')} messages for today: visitors without a key wait until tomorrow`;
  if (item.kind === 'owner_key_refused') return 'The provider refused your key: answering with it is paused until you save a working key';
  return 'Something happened';
};

const notificationLink = (item: Notification): string | null => {
  if (item.kind === 'lead_captured') return '/dashboard/leads';
  if (item.kind.startsWith('owner_key_')) return '/dashboard/settings';
  const id = item.payload.conversationId;
  return typeof id === 'string' ? `/dashboard/conversations/${encodeURIComponent(id)}` : null;
};

/** The bell: unread count, the latest notifications in words, mark one or all as read. */
const NotificationBell = (p: { initial?: NotificationList | undefined }) => {
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Notification[]>(p.initial?.items ?? []);
  const [unread, setUnread] = useState(p.initial?.unreadCount ?? 0);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLDivElement>(null);

  const load = async () => {
    const answer = await api<NotificationList>('/api/notifications?limit=10');
    if (answer.ok) {
      setItems(answer.body.items);
      setUnread(answer.body.unreadCount);
    }
  };
  useEffect(() => {
    // Rendered with the server's list: the next look is the timer's.
    if (!p.initial) void load();
    const timer = setInterval(() => void load(), 30_000);
    return () => clearInterval(timer);
  }, []);
  // The focus moves into the panel as it is drawn, before the browser handles the next key: a
  // Shift+Tab pressed right after Enter must start from the panel, not from the bell.
  useLayoutEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    // Esc closes the panel wherever the focus is, and gives the focus back to the bell.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const markRead = async (id: string) => {
    const answer = await api<{ unreadCount: number }>(`/api/notifications/${encodeURIComponent(id)}/read`, { method: 'POST' });
    if (answer.ok) await load();
  };
  const markAll = async () => {
    const answer = await api('/api/notifications/read-all', { method: 'POST' });
    if (answer.ok) await load();
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div
      class="bell"
      ref={bell}
      onFocusOut={(event) => {
        // Focus moved on past the panel and its button (Tab, a click elsewhere): the panel closes behind it.
        const next = event.relatedTarget;
        if (next instanceof Node && !bell.current?.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        class="bell-button"
        aria-expanded={open}
        aria-controls="notification-panel"
        onClick={() => (open ? close() : (setOpen(true), void load()))}
      >
        <svg class="icon" aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <span class="visually-hidden">Notifications, </span>
        <span class={unread ? 'badge' : 'badge zero'}>{unread}</span>
        <span class="visually-hidden"> unread</span>
      </button>
      {open && (
        <div
          id="notification-panel"
          class="bell-panel"
          role="region"
          aria-label="Notifications"
          tabIndex={-1}
          ref={panel}
        >
          <div class="bell-head">
            <h2>Notifications</h2>
            <button type="button" onClick={() => void markAll()} disabled={unread === 0}>
              Mark all as read
            </button>
          </div>
          {items.length === 0 ? (
            <p class="muted">Nothing yet. Conversations and leads that your self-hosted widget saves appear here.</p>
          ) : (
            <ul class="notifications">
              {items.map((item) => {
                const link = notificationLink(item);
                const words = notificationWords(item);
                return (
                  <li key={item.id} class={item.readAt ? 'read' : 'unread'}>
                    <div>
                      {link ? <a href={link}>{words}</a> : words}
                      <div class="muted small">{formatDate(item.createdAt)}</div>
                    </div>
                    {!item.readAt && (
                      <button type="button" class="small" onClick={() => void markRead(item.id)} aria-label={`Mark as read: ${words}`}>
                        Mark as read
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
};

export const DashboardLayout = (p: {
  user: { name: string; email: string };
  nav: { href: string; label: string }[];
  current: string;
  title: string;
  notifications?: NotificationList | undefined;
  children: ComponentChildren;
}) => (
  <div class="dashboard">
    <a class="skip" href="#main">
      Skip to content
    </a>
    <header class="topbar">
      <a class="brand" href="/dashboard">
        Career Bot
      </a>
      <div class="topbar-right">
        <NotificationBell initial={p.notifications} />
        <span class="who muted">{p.user.name}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
    </header>
    <nav class="sidenav" aria-label="Dashboard">
      <ul>
        {p.nav.map(({ href, label }) => (
          <li key={href}>
            <a href={href} aria-current={p.current === href ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
    <main id="main" tabIndex={-1}>
      <h1>{p.title}</h1>
      {p.children}
    </main>
  </div>
);

/** GET /api/bots: the bot, its settings and counters; null before the first save. */
export interface Overview {
  bot: {
    id: string;
    name: string;
    headline: string | null;
    personality: string;
    contextText: string;
    suggestedQuestions: string[];
    loadingMessages: string[];
    isActive: boolean;
  };
  settings: { themeColor: string; deploymentMode: string; rateLimits: { perMinute: number; perDay: number }; embedOrigins: string[] };
  stats: { totalConversations: number; totalMessages: number; totalLeads: number };
  llm: { provider: string | null; model: string | null };
  /** The avatar's path: the owner's photo, or the initials. */
  image: string;
}

/** The bot's overview: `initial` when the server rendered the page with it, else fetched. */
export const useOverview = (initial?: Overview | null) => {
  const [state, setState] = useState<{ loading: boolean; overview: Overview | null }>(
    initial === undefined ? { loading: true, overview: null } : { loading: false, overview: initial },
  );
  const reload = async () => {
    const answer = await api<Overview>('/api/bots');
    setState({ loading: false, overview: answer.ok ? answer.body : null });
  };
  useEffect(() => {
    if (initial === undefined) void reload();
  }, []);
  return { ...state, reload, set: (overview: Overview) => setState({ loading: false, overview }) };
};

export const CopyButton = (p: { text: string; label: string }) => {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(p.text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          setCopied(false);
        }
      }}
    >
      {copied ? 'Copied' : p.label}
      <span class="visually-hidden" role="status">
        {copied ? ' to the clipboard' : ''}
      </span>
    </button>
  );
};

export const NoBotYet = () => (
  <section class="card" aria-labelledby="next-steps">
    <h2 id="next-steps">What to do next</h2>
    <ol class="steps">
      <li>
        <a href="/dashboard/bot">Describe your bot</a>: its name, a headline, and everything it should know about your career.
      </li>
      <li>
        <a href="/dashboard/try">Try it</a> with your own provider key.
      </li>
      <li>Share its public link, or put it on your site with one script tag.</li>
    </ol>
  </section>
);
