import { useEffect, useState } from 'preact/hooks';
import { api } from './api.ts';
import { Alert } from './fields.tsx';
import { reasonLabel } from './refusal-reasons.ts';

/** "1 conversation", "2,000 conversations": a count with its noun, singular for one. */
const counted = (count: number, noun: string) => `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;

/** GET /api/bots/insights */
export interface Insights {
  days: 30 | 90;
  series: { date: string; conversations: number; messages: number; leads: number }[];
  totals: { conversations: number; messages: number; leads: number; conversationsWithLead: number; leadShare: number };
  topQuestions: { question: string; count: number; conversationIds: string[] }[];
  refusals: { reason: string; count: number }[];
}

type Series = 'conversations' | 'messages' | 'leads';
const SERIES: { key: Series; label: string }[] = [
  { key: 'conversations', label: 'Conversations' },
  { key: 'messages', label: 'Messages' },
  { key: 'leads', label: 'Leads' },
];

export const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The insights of the owner's bot, for 30 or 90 days; null before the first save, undefined while loading. */
export const useInsights = (days: 30 | 90) => {
  const [state, setState] = useState<{ insights: Insights | null | undefined; failed: boolean }>({ insights: undefined, failed: false });
  useEffect(() => {
    let current = true;
    setState({ insights: undefined, failed: false });
    api<Insights>(`/api/bots/insights?days=${days}`)
      .then((answer) => current && setState({ insights: answer.ok ? answer.body : answer.status === 404 ? null : undefined, failed: !answer.ok && answer.status !== 404 }))
      .catch(() => current && setState({ insights: undefined, failed: true }));
    return () => {
      current = false;
    };
  }, [days]);
  return state;
};

/**
 * One series as bars drawn on the server and in the browser alike (an SVG, no script, no
 * library): hidden from screen readers, which read the table after it.
 */
const BarChart = (p: { insights: Insights; series: Series; label: string }) => {
  const values = p.insights.series.map((day) => day[p.series]);
  const highest = Math.max(0, ...values);
  // An all-zero series still draws its (empty) bars against a scale of one.
  const max = Math.max(1, highest);
  const width = 600;
  const height = 120;
  const step = width / values.length;
  return (
    <figure class="chart">
      <figcaption>
        {p.label} per day {highest > 0 && <span class="muted">(highest: {highest.toLocaleString('en')})</span>}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <line x1="0" y1={height} x2={width} y2={height} class="axis" />
        {values.map((value, i) => {
          const barHeight = (value / max) * (height - 4);
          return <rect key={i} x={i * step + step * 0.15} y={height - barHeight} width={step * 0.7} height={barHeight} class={`bar bar-${p.series}`} />;
        })}
      </svg>
      <div class="ticks" aria-hidden="true">
        <span>{shortDate(p.insights.series[0]!.date)}</span>
        <span>{shortDate(p.insights.series.at(-1)!.date)}</span>
      </div>
    </figure>
  );
};

const DaysTable = ({ insights }: { insights: Insights }) => (
  <details class="chart-table">
    <summary>The numbers per day, as a table</summary>
    {/* Focusable, so a keyboard can scroll it on a narrow screen. */}
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Numbers per day">
      <table>
        <caption>Conversations, messages and leads per day (UTC), last {insights.days} days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SERIES.map((s) => (
              <th scope="col" key={s.key}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {insights.series.map((day) => (
            <tr key={day.date}>
              <th scope="row">{day.date}</th>
              <td>{day.conversations}</td>
              <td>{day.messages}</td>
              <td>{day.leads}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </details>
);

export const InsightsPage = () => {
  const [days, setDays] = useState<30 | 90>(30);
  const { insights, failed } = useInsights(days);
  return (
    <>
      <div class="period" role="group" aria-label="Period">
        {([30, 90] as const).map((d) => (
          <button key={d} type="button" aria-pressed={days === d} class={days === d ? 'primary' : ''} onClick={() => setDays(d)}>
            Last {d} days
          </button>
        ))}
      </div>
      {failed && <Alert>The insights could not be loaded. Please reload the page.</Alert>}
      {insights === undefined && !failed && <p class="muted">Loading…</p>}
      {insights === null && <p class="muted">Save your bot first: its insights appear here once visitors chat with it.</p>}
      {insights && (
        <>
          <section class="stats" aria-label={`Totals, last ${insights.days} days`}>
            {SERIES.map((s) => (
              <div class="stat" key={s.key}>
                <span class="stat-value">{insights.totals[s.key].toLocaleString('en')}</span>
                <span class="stat-label">{s.label}</span>
              </div>
            ))}
            <div class="stat">
              <span class="stat-value">{percent(insights.totals.leadShare)}</span>
              <span class="stat-label">Conversations ending in a lead</span>
            </div>
          </section>
          <section class="card" aria-labelledby="per-day">
            <h2 id="per-day">Per day</h2>
            {SERIES.every((s) => insights.totals[s.key] === 0) ? (
              // Flat charts and a table of zeros would say less than one sentence.
              <p class="muted">
                Nothing to chart: no conversation was recorded in the last {insights.days} days. Only a self-hosted widget or runtime records
                conversations; chats on your public page and in the managed widget are answered but not counted.{' '}
                <a href="/dashboard/tokens">Set up a self-hosted widget</a>.
              </p>
            ) : (
              <>
                {SERIES.map((s) => (
                  <BarChart key={s.key} insights={insights} series={s.key} label={s.label} />
                ))}
                <DaysTable insights={insights} />
              </>
            )}
          </section>
          <section class="card" aria-labelledby="top-questions">
            <h2 id="top-questions">What visitors ask first</h2>
            {insights.topQuestions.length === 0 ? (
              <p class="muted">No conversations in this period yet.</p>
            ) : (
              <ol class="top-questions">
                {insights.topQuestions.map((q) => (
                  <li key={q.question}>
                    <span class="question">{q.question}</span>{' '}
                    <span class="muted">
                      {counted(q.count, 'conversation')}
                    </span>
                    <span class="links">
                      {q.conversationIds.map((id, i) => (
                        <a key={id} href={`/dashboard/conversations/${id}`}>
                          Conversation {i + 1}
                          <span class="visually-hidden"> that opened with: {q.question}</span>
                        </a>
                      ))}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section class="card" aria-labelledby="refusals">
            <h2 id="refusals">Messages the filter refused</h2>
            {insights.refusals.length === 0 ? (
              <p class="muted">None in this period.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <caption>Refused messages by reason, last {insights.days} days</caption>
                  <thead>
                    <tr>
                      <th scope="col">Reason</th>
                      <th scope="col">Messages</th>
                    </tr>
                  </thead>
                  <tbody>
                    {insights.refusals.map((r) => (
                      <tr key={r.reason}>
                        <th scope="row">{reasonLabel(r.reason)}</th>
                        <td>{r.count.toLocaleString('en')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <a href="/dashboard/refused">Read the refused messages</a>
          </section>
        </>
      )}
    </>
  );
};

/** On the overview: the last 30 days in one line, and the way to the insights page. */
export const InsightsSummary = () => {
  const { insights } = useInsights(30);
  if (!insights) return null;
  const { totals } = insights;
  const refused = insights.refusals.reduce((sum, r) => sum + r.count, 0);
  return (
    <section class="card" aria-labelledby="insights-summary">
      <h2 id="insights-summary">Last 30 days</h2>
      <p>
        {counted(totals.conversations, 'conversation')}, {counted(totals.leads, 'lead')}; {percent(totals.leadShare)} of conversations ended in a lead.
        {insights.topQuestions[0] && <> Asked most: “{insights.topQuestions[0].question}”.</>}
      </p>
      {refused > 0 && (
        <p>
          The message filter refused {counted(refused, 'message')}. <a href="/dashboard/refused">See what it refused</a>
        </p>
      )}
      <a href="/dashboard/insights">See the insights</a>
    </section>
  );
};
