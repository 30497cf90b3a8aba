import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, formatDate } from './api.ts';
import { NoBotYet } from './dashboard-layout.tsx';
import { Alert } from './fields.tsx';

const PAGE_SIZE = 20;

/** What is recorded, and what is not: only a self-hosted widget or runtime saves chats and leads here. */
const RecordedBy = (p: { what: 'Conversations' | 'Leads' }) => (
  <p class="muted">
    {p.what} are saved here only by a self-hosted widget or runtime, with a bot token. Chats on your public page and in the managed
    widget are not recorded. <a href="/dashboard/tokens">Set up a self-hosted widget</a>: create a token, choose self-hosted as the
    deployment mode in Settings, and the overview shows the steps.
  </p>
);

/** One page of a list, as the API answers it. */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Cursor pagination, newest first: "Older" follows nextCursor, "Newer" goes back. `initial`
 * is the first page the server rendered (null: no bot yet); undefined: fetched after loading.
 */
export const usePages = <T,>(path: string, initial: ListPage<T> | null | undefined) => {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<ListPage<T> | null>(initial ?? null);
  // The number of the page shown, which follows the one asked for once it arrives: the pager reads
  // the shown page's number and its nextCursor together, never one page's number with another's cursor.
  const [shownNumber, setShownNumber] = useState(1);
  const [status, setStatus] = useState<'loading' | 'ok' | 'no_bot' | 'error'>(initial === undefined ? 'loading' : initial ? 'ok' : 'no_bot');
  const rendered = useRef(initial !== undefined);
  const cursor = cursors[cursors.length - 1] ?? null;
  useEffect(() => {
    if (rendered.current && cursor === null) return;
    rendered.current = false;
    // Paging keeps the page shown until the next one arrives: replacing it with "Loading…" would take
    // the pager, and the keyboard focus on Newer or Older, away with it.
    setStatus((now) => (now === 'ok' ? 'ok' : 'loading'));
    const query = `?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const number = cursors.length;
    void api<ListPage<T>>(`${path}${query}`).then((answer) => {
      if (answer.ok) {
        setPage(answer.body);
        setShownNumber(number);
        setStatus('ok');
      } else setStatus(answer.status === 404 ? 'no_bot' : 'error');
    });
  }, [path, cursor]);
  return {
    status,
    page,
    pageNumber: shownNumber,
    // Neither moves while a page is on its way (the pager stays on screen meanwhile): a second press
    // would ask for the same page again under the next page's number.
    older: () => cursors.length === shownNumber && page?.nextCursor && setCursors([...cursors, page.nextCursor]),
    newer: () => cursors.length === shownNumber && cursors.length > 1 && setCursors(cursors.slice(0, -1)),
  };
};

/**
 * Newer and Older, or nothing when everything fits on the first page: two dead buttons say nothing.
 * aria-disabled, not disabled: pressing Older onto the last page (or Newer onto the first) would
 * otherwise drop the keyboard focus to the page as the button it is on turns off.
 */
export const Pager = (p: { pageNumber: number; hasOlder: boolean; older: () => void; newer: () => void; label: string }) =>
  p.pageNumber === 1 && !p.hasOlder ? null : (
    <nav class="pager" aria-label={`${p.label} pages`}>
      <button type="button" onClick={p.newer} aria-disabled={p.pageNumber === 1}>
        Newer
      </button>
      <span>Page {p.pageNumber}</span>
      <button type="button" onClick={p.older} aria-disabled={!p.hasOlder}>
        Older
      </button>
    </nav>
  );

export const Listing = (p: { status: string; empty: string; children: ComponentChildren }) => {
  if (p.status === 'loading') return <p class="muted">Loading…</p>;
  if (p.status === 'no_bot') return <NoBotYet />;
  if (p.status === 'error') return <Alert>Loading failed. Please reload the page.</Alert>;
  return <>{p.children}</>;
};

export interface ConversationItem {
  id: string;
  sessionId: string;
  messageCount: number;
  startedAt: string;
  lastMessageAt: string;
  preview: string;
}

export const ConversationsPage = (p: { initial?: ListPage<ConversationItem> | null | undefined }) => {
  const pages = usePages<ConversationItem>('/api/bots/conversations', p.initial);
  const items = pages.page?.items ?? [];
  return (
    <Listing status={pages.status} empty="">
      <RecordedBy what="Conversations" />
      {items.length === 0 ? (
        <p class="muted">No conversations yet.</p>
      ) : (
        <ul class="rows">
          {items.map((item) => (
            <li key={item.id} class="row">
              <a href={`/dashboard/conversations/${item.id}`} class="row-title">
                {item.preview || '(empty)'}
              </a>
              <span class="muted small">
                {item.messageCount} messages · started {formatDate(item.startedAt)} · last {formatDate(item.lastMessageAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager label="Conversation" pageNumber={pages.pageNumber} hasOlder={!!pages.page?.nextCursor} older={pages.older} newer={pages.newer} />
    </Listing>
  );
};

export interface ConversationDetail {
  conversation: { messageCount: number; startedAt: string };
  messages: { role: string; content: string; createdAt: string }[];
}

export const ConversationPage = (p: { conversationId?: string | undefined; initial?: ConversationDetail | null | undefined }) => {
  const [state, setState] = useState<{ status: 'loading' | 'ok' | 'missing'; detail?: ConversationDetail }>(
    p.initial === undefined ? { status: 'loading' } : p.initial ? { status: 'ok', detail: p.initial } : { status: 'missing' },
  );
  useEffect(() => {
    if (p.initial !== undefined) return;
    void api<ConversationDetail>(`/api/bots/conversations/${encodeURIComponent(p.conversationId ?? '')}`).then((answer) =>
      setState(answer.ok ? { status: 'ok', detail: answer.body } : { status: 'missing' }),
    );
  }, [p.conversationId]);
  if (state.status === 'loading') return <p class="muted">Loading…</p>;
  if (state.status === 'missing') {
    return (
      <Alert>
        This conversation does not exist. <a href="/dashboard/conversations">Back to the conversations</a>
      </Alert>
    );
  }
  const { conversation, messages } = state.detail!;
  return (
    <>
      <p>
        <a href="/dashboard/conversations">← All conversations</a>
      </p>
      <p class="muted">
        {conversation.messageCount} messages · started {formatDate(conversation.startedAt)}
      </p>
      <ol class="transcript" aria-label="Transcript">
        {messages.map((message, index) => (
          <li key={index} class={`bubble ${message.role === 'user' ? 'visitor' : 'bot'}`}>
            <span class="speaker small">{message.role === 'user' ? 'Visitor' : 'Bot'} · {formatDate(message.createdAt)}</span>
            <span class="text">{message.content}</span>
          </li>
        ))}
      </ol>
    </>
  );
};

export interface LeadItem {
  id: string;
  email: string;
  capturedAt: string;
  conversationId: string | null;
  contextSummary: string | null;
}

export const LeadsPage = (p: { initial?: ListPage<LeadItem> | null | undefined }) => {
  const pages = usePages<LeadItem>('/api/bots/leads', p.initial);
  const items = pages.page?.items ?? [];
  return (
    <Listing status={pages.status} empty="">
      <p>
        <a class="button" href="/api/bots/leads.csv" download="leads.csv">
          Download CSV
        </a>
      </p>
      <RecordedBy what="Leads" />
      {items.length === 0 ? (
        <p class="muted">No leads yet. A self-hosted widget saves one when a visitor leaves an e-mail address.</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">E-mail</th>
                <th scope="col" role="columnheader">Captured</th>
                <th scope="col" role="columnheader">Summary</th>
                <th scope="col" role="columnheader">Conversation</th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {items.map((lead) => (
                <tr key={lead.id} role="row">
                  <td role="cell" data-label="E-mail">{lead.email}</td>
                  <td role="cell" data-label="Captured">{formatDate(lead.capturedAt)}</td>
                  <td role="cell" class="summary" data-label="Summary">{lead.contextSummary ?? '—'}</td>
                  <td role="cell" data-label="Conversation">{lead.conversationId ? <a href={`/dashboard/conversations/${lead.conversationId}`}>Open</a> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Lead" pageNumber={pages.pageNumber} hasOlder={!!pages.page?.nextCursor} older={pages.older} newer={pages.newer} />
    </Listing>
  );
};
