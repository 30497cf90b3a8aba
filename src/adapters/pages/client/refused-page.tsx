import { formatDate } from './api.ts';
import { useInsights } from './insights-page.tsx';
import { Listing, Pager, usePages, type ListPage } from './lists-pages.tsx';
import { reasonLabel, REFUSAL_REASONS } from './refusal-reasons.ts';

/** GET /api/bots/refused-messages: one item. */
export interface RefusedItem {
  id: string;
  reason: string;
  content: string;
  createdAt: string;
}

/** Each reason in words, with how many messages it refused in the last 30 days. */
const ReasonCounts = () => {
  const { insights } = useInsights(30);
  const counts = new Map(insights?.refusals.map((r) => [r.reason, r.count]));
  return (
    <section class="card" aria-labelledby="refused-reasons">
      <h2 id="refused-reasons">Why a message is refused</h2>
      <div class="table-wrap">
        <table class="stack" role="table">
          <caption>Messages refused by reason, last 30 days</caption>
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">Reason</th>
              <th scope="col" role="columnheader">What it means</th>
              <th scope="col" role="columnheader">Messages</th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {Object.entries(REFUSAL_REASONS).map(([reason, words]) => (
              <tr key={reason} role="row">
                <th scope="row" role="rowheader">{words.label}</th>
                <td role="cell" data-label="What it means">{words.meaning}</td>
                <td role="cell" data-label="Messages">{insights ? (counts.get(reason) ?? 0).toLocaleString('en') : '…'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
};

/** The messages the filter refused, newest first, as the visitor wrote them (text, never markup). */
export const RefusedPage = (p: { initial?: ListPage<RefusedItem> | null | undefined }) => {
  const pages = usePages<RefusedItem>('/api/bots/refused-messages', p.initial);
  const items = pages.page?.items ?? [];
  return (
    <Listing status={pages.status} empty="">
      <p>
        The message filter refuses a visitor’s message that looks like an attack on your bot: the visitor is told, and the bot does not answer.
        A recruiter can be refused by mistake, so every refused message is kept here for 30 days, with the reason and the time, and then deleted.
      </p>
      <ReasonCounts />
      <section class="card" aria-labelledby="refused-list">
        <h2 id="refused-list">Refused messages</h2>
        {items.length === 0 ? (
          <p class="muted">No message was refused in the last 30 days.</p>
        ) : (
          <ol class="rows refused" aria-label="Refused messages, newest first">
            {items.map((item) => (
              <li key={item.id} class="row">
                <span class="row-title">{reasonLabel(item.reason)}</span>
                <span class="muted small">{formatDate(item.createdAt)}</span>
                <p class="refused-text">{item.content}</p>
              </li>
            ))}
          </ol>
        )}
        <Pager label="Refused message" pageNumber={pages.pageNumber} hasOlder={!!pages.page?.nextCursor} older={pages.older} newer={pages.newer} />
      </section>
    </Listing>
  );
};
