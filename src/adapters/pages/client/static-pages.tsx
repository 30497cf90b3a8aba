import { Alert } from './fields.tsx';

/** What the service is, readable with no script at all; after an account's deletion, that it is done. */
export const HomePage = (p: { accountDeleted?: boolean }) => (
  <main class="home">
    {p.accountDeleted && (
      <Alert kind="success">Your account is deleted, with your bot and every conversation, lead, token and notification.</Alert>
    )}
    <h1>Career Bot</h1>
    <p class="lead">
      Your career, as a chat bot. Give recruiters a bot that answers from your own words, any time.
    </p>
    <ul class="home-points">
      <li>Write what you want your bot to know: your experience, projects, what you are looking for.</li>
      <li>Pick the model that answers: Anthropic, OpenAI, Google or Azure OpenAI. Your own key answers, or visitors bring theirs.</li>
      <li>Share a link, or put the bot on your own site with one script tag.</li>
      <li>Host the widget yourself and it saves the conversations and the e-mail addresses visitors leave, for your dashboard.</li>
    </ul>
    <p class="home-actions">
      <a class="button primary" href="/register">
        Create an account
      </a>
      <a class="button" href="/login">
        Sign in
      </a>
    </p>
  </main>
);

export const NotAvailablePage = () => (
  <main class="narrow">
    <h1>This bot is not available</h1>
    <p>The link may be wrong, or its owner has switched the bot off.</p>
    <p>
      <a href="/">Career Bot home</a>
    </p>
  </main>
);

/** Any address the service has no page for, asked for by a browser. */
export const NotFoundPage = () => (
  <main class="narrow">
    <h1>Page not found</h1>
    <p>There is no page at this address. The link may be wrong or out of date.</p>
    <p>
      <a href="/">Career Bot home</a>
    </p>
  </main>
);
