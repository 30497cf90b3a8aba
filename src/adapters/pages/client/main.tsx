import { render, type ComponentChildren } from 'preact';
import { LoginPage, RegisterPage } from './auth-pages.tsx';
import { BotEditorPage } from './bot-editor.tsx';
import { PublicChatPage } from './chat-panel.tsx';
import { DashboardLayout, type DashboardProps } from './dashboard-layout.tsx';
import { ConversationPage, ConversationsPage, LeadsPage } from './lists-pages.tsx';
import { OverviewPage, TryPage } from './overview-page.tsx';
import { SettingsPage } from './settings-page.tsx';
import { TokensPage } from './tokens-page.tsx';

/** Dashboard pages: the nav entry they belong to, their heading, and what they render. */
const DASHBOARD: Record<string, { current: string; title: string; render: (props: DashboardProps) => ComponentChildren }> = {
  overview: { current: '/dashboard', title: 'Dashboard', render: (p) => <OverviewPage {...p} /> },
  bot: { current: '/dashboard/bot', title: 'Your bot', render: () => <BotEditorPage /> },
  try: { current: '/dashboard/try', title: 'Try your bot', render: () => <TryPage /> },
  conversations: { current: '/dashboard/conversations', title: 'Conversations', render: () => <ConversationsPage /> },
  conversation: { current: '/dashboard/conversations', title: 'Conversation', render: (p) => <ConversationPage conversationId={p.conversationId} /> },
  leads: { current: '/dashboard/leads', title: 'Leads', render: () => <LeadsPage /> },
  tokens: { current: '/dashboard/tokens', title: 'Bot tokens', render: () => <TokensPage /> },
  settings: { current: '/dashboard/settings', title: 'Settings', render: () => <SettingsPage /> },
};

const root = document.getElementById('app')!;
const page = document.body.dataset.page ?? '';
const props = JSON.parse(document.body.dataset.props ?? '{}');

const dashboard = DASHBOARD[page];
if (dashboard) {
  render(
    <DashboardLayout {...props} current={dashboard.current} title={dashboard.title}>
      {dashboard.render(props)}
    </DashboardLayout>,
    root,
  );
} else if (page === 'login') render(<LoginPage {...props} />, root);
else if (page === 'register') render(<RegisterPage />, root);
else if (page === 'public-chat') render(<PublicChatPage {...props} />, root);
// home and unavailable are complete as the server rendered them.
