import type { ComponentChildren } from 'preact';
import { AccountPage, ConfirmEmailPage, ForgotPasswordPage, ResetPasswordPage, RetentionSetting } from './client/account-pages.tsx';
import { LoginPage, RegisterPage } from './client/auth-pages.tsx';
import { BotEditorPage } from './client/bot-editor.tsx';
import { InsightsPage } from './client/insights-page.tsx';
import { PublicChatPage, type PublicBotView } from './client/chat-panel.tsx';
import { DashboardLayout, type NotificationList, type Overview } from './client/dashboard-layout.tsx';
import { ConversationPage, ConversationsPage, LeadsPage, type ConversationDetail, type ConversationItem, type LeadItem, type ListPage } from './client/lists-pages.tsx';
import { OverviewPage, TryPage } from './client/overview-page.tsx';
import type { OwnerKeyView } from './client/owner-key-section.tsx';
import { RefusedPage, type RefusedItem } from './client/refused-page.tsx';
import { SettingsPage } from './client/settings-page.tsx';
import { HomePage, NotAvailablePage, NotFoundPage } from './client/static-pages.tsx';
import { TokensPage, type TokenInfo } from './client/tokens-page.tsx';

/**
 * The data a page is rendered with: the bodies of the API's GET endpoints it would otherwise
 * fetch after loading (null where the API answers 404: no bot yet, an unknown id).
 */
export interface PageData {
  /** GET /api/bots */
  overview: Overview | null;
  /** GET /api/notifications?limit=10: the bell on every dashboard page. */
  notifications: NotificationList;
  /** GET /api/bots/conversations?limit=20 */
  conversations: ListPage<ConversationItem> | null;
  /** GET /api/bots/conversations/{id} */
  conversation: ConversationDetail | null;
  /** GET /api/bots/leads?limit=20 */
  leads: ListPage<LeadItem> | null;
  /** GET /api/bots/refused-messages?limit=20 */
  refusedMessages: ListPage<RefusedItem> | null;
  /** GET /api/bots/tokens */
  tokens: { tokens: TokenInfo[] } | null;
  /** GET /api/account/settings */
  accountSettings: { notifyLeadsEmail: boolean } | null;
  /** GET /api/bots/{botId}/public */
  publicBot: (PublicBotView & { llmProvider: string; ownerKeyAnswers: boolean }) | null;
  /** GET /api/account/llm-key */
  ownerKey: OwnerKeyView | null;
}
export type DataKey = keyof PageData;

/** What the server renders a page with, and hands to the browser to hydrate it with. */
export type PageProps = Partial<PageData> & {
  user?: { name: string; email: string };
  /** The service's public origin, for share links. */
  origin?: string;
  /** The path's parameters (`:id`). */
  params?: Record<string, string>;
  /** The query strings the page reads. */
  query?: Record<string, string>;
};

export interface PageEntry {
  name: string;
  /** Its route, in Express syntax; none for a page shown in place of another (a 404). */
  path?: string;
  /** The document title and, in the dashboard, the heading. */
  title: string | ((props: PageProps) => string);
  /** owner: signed in, in the dashboard frame; guest: signed out (an owner goes to the dashboard). */
  access: 'owner' | 'guest' | 'anyone';
  /** Its entry in the dashboard's navigation. */
  nav?: string;
  /** The navigation entry it belongs to, when it has none of its own. */
  section?: string;
  data?: DataKey[];
  query?: string[];
  /** The page shown instead, with a 404, when its first data is missing. */
  orElse?: string;
  render: (props: PageProps) => ComponentChildren;
}

/** Every page, once: the server routes and renders these, the browser hydrates them. */
export const PAGES: PageEntry[] = [
  {
    name: 'home',
    path: '/',
    title: 'Your career, as a chat bot',
    access: 'guest',
    query: ['deleted'],
    render: (p) => <HomePage accountDeleted={p.query?.deleted === '1'} />,
  },
  {
    name: 'login',
    path: '/login',
    title: 'Sign in',
    access: 'guest',
    query: ['callbackUrl', 'error'],
    render: (p) => <LoginPage callbackUrl={p.query?.callbackUrl ?? '/dashboard'} error={p.query?.error ?? null} />,
  },
  { name: 'register', path: '/register', title: 'Create your account', access: 'guest', render: () => <RegisterPage /> },
  {
    name: 'overview',
    path: '/dashboard',
    title: 'Dashboard',
    nav: 'Overview',
    access: 'owner',
    data: ['overview', 'ownerKey', 'tokens'],
    render: (p) => <OverviewPage origin={p.origin ?? ''} initial={p.overview} ownerKey={p.ownerKey} tokens={p.tokens?.tokens} />,
  },
  { name: 'bot', path: '/dashboard/bot', title: 'Your bot', nav: 'Your bot', access: 'owner', data: ['overview', 'ownerKey'], render: (p) => <BotEditorPage initial={p.overview} ownerKey={p.ownerKey} /> },
  { name: 'try', path: '/dashboard/try', title: 'Try your bot', nav: 'Try your bot', access: 'owner', data: ['overview'], render: (p) => <TryPage initial={p.overview} /> },
  {
    name: 'conversations',
    path: '/dashboard/conversations',
    title: 'Conversations',
    nav: 'Conversations',
    access: 'owner',
    data: ['conversations'],
    render: (p) => <ConversationsPage initial={p.conversations} />,
  },
  {
    name: 'conversation',
    path: '/dashboard/conversations/:id',
    title: 'Conversation',
    section: '/dashboard/conversations',
    access: 'owner',
    data: ['conversation'],
    render: (p) => <ConversationPage conversationId={p.params?.id} initial={p.conversation} />,
  },
  { name: 'insights', path: '/dashboard/insights', title: 'Insights', nav: 'Insights', access: 'owner', render: () => <InsightsPage /> },
  {
    name: 'refused',
    path: '/dashboard/refused',
    title: 'Refused messages',
    nav: 'Refused messages',
    access: 'owner',
    data: ['refusedMessages'],
    render: (p) => <RefusedPage initial={p.refusedMessages} />,
  },
  { name: 'leads', path: '/dashboard/leads', title: 'Leads', nav: 'Leads', access: 'owner', data: ['leads'], render: (p) => <LeadsPage initial={p.leads} /> },
  {
    name: 'tokens',
    path: '/dashboard/tokens',
    title: 'Bot tokens',
    nav: 'Bot tokens',
    access: 'owner',
    data: ['tokens', 'overview'],
    render: (p) => <TokensPage initial={p.tokens === undefined ? undefined : (p.tokens?.tokens ?? null)} origin={p.origin ?? ''} overview={p.overview} />,
  },
  {
    name: 'settings',
    path: '/dashboard/settings',
    title: 'Settings',
    nav: 'Settings',
    access: 'owner',
    data: ['overview', 'accountSettings', 'ownerKey'],
    render: (p) => (
      <>
        <SettingsPage initial={p.overview} initialAccount={p.accountSettings} initialOwnerKey={p.ownerKey} />
        <RetentionSetting />
      </>
    ),
  },
  {
    name: 'account',
    path: '/dashboard/account',
    title: 'Account',
    nav: 'Account',
    access: 'owner',
    render: (p) => <AccountPage user={p.user ?? { name: '', email: '' }} />,
  },
  { name: 'forgot-password', path: '/forgot-password', title: 'Forgot your password?', access: 'anyone', render: () => <ForgotPasswordPage /> },
  { name: 'reset-password', path: '/reset-password', title: 'Choose a new password', access: 'anyone', render: () => <ResetPasswordPage /> },
  { name: 'confirm-email', path: '/confirm-email', title: 'Confirm your new e-mail address', access: 'anyone', render: () => <ConfirmEmailPage /> },
  {
    name: 'public-chat',
    path: '/b/:botId',
    title: (p) => p.publicBot?.name ?? '',
    access: 'anyone',
    data: ['publicBot'],
    orElse: 'unavailable',
    render: (p) => <PublicChatPage bot={p.publicBot!} provider={p.publicBot!.llmProvider} ownerKeyAnswers={p.publicBot!.ownerKeyAnswers} />,
  },
  { name: 'unavailable', title: 'Bot not available', access: 'anyone', render: () => <NotAvailablePage /> },
  { name: 'not-found', title: 'Page not found', access: 'anyone', render: () => <NotFoundPage /> },
];

export const pageNamed = (name: string): PageEntry | undefined => PAGES.find((page) => page.name === name);

export const pageTitle = (page: PageEntry, props: PageProps) => (typeof page.title === 'string' ? page.title : page.title(props));

/** The dashboard's navigation: path and label of every page that has an entry. */
const NAV = PAGES.flatMap((page) => (page.nav && page.path ? [{ href: page.path, label: page.nav }] : []));

/** A page's whole tree: the same on the server (first paint) and in the browser (hydration). */
export const pageTree = (page: PageEntry, props: PageProps): ComponentChildren =>
  page.access === 'owner' ? (
    <DashboardLayout
      user={props.user ?? { name: '', email: '' }}
      nav={NAV}
      current={page.section ?? page.path ?? ''}
      title={pageTitle(page, props)}
      notifications={props.notifications}
    >
      {page.render(props)}
    </DashboardLayout>
  ) : (
    page.render(props)
  );
