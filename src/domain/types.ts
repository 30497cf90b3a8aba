export const LLM_PROVIDERS = ['anthropic', 'openai', 'google', 'azure'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export const PERSONALITIES = ['professional', 'creative', 'enthusiastic'] as const;
export type Personality = (typeof PERSONALITIES)[number];

export const DEPLOYMENT_MODES = ['managed', 'self_hosted'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];

export interface User {
  id: string;
  username: string;
  email: string;
  llmProvider: LlmProvider | null;
  llmModel: string | null;
  notifyLeadsEmail: boolean;
  createdAt: Date;
}

/** Only the sign-in path ever sees the hash. */
export interface UserCredentials {
  id: string;
  username: string;
  email: string;
  passwordHash: string;
}

export interface RateLimitOverrides {
  perMinute: number | null;
  perDay: number | null;
}

export interface Bot {
  id: string;
  userId: string;
  name: string;
  headline: string | null;
  personality: Personality;
  contextText: string;
  suggestedQuestions: string[];
  loadingMessages: string[];
  isActive: boolean;
  themeColor: string;
  deploymentMode: DeploymentMode;
  rateLimits: RateLimitOverrides;
  /** The sites (origins) allowed to frame the managed widget's chat; empty: any site (embed-origins.ts). */
  embedOrigins: string[];
  /** The SHA-256 (hex) of the owner's photo, re-encoded; null: the initials are the avatar. */
  photoHash: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface BotStats {
  totalConversations: number;
  totalMessages: number;
  totalLeads: number;
}

export type ChatRole = 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface Conversation {
  id: string;
  botId: string;
  sessionId: string;
  messageCount: number;
  startedAt: Date;
  lastMessageAt: Date;
}

export interface StoredMessage extends ChatMessage {
  createdAt: Date;
}

export interface Lead {
  id: string;
  botId: string;
  email: string;
  conversationId: string | null;
  contextSummary: string | null;
  capturedAt: Date;
}

/** A visitor's message the message filter refused, kept for the owner (REFUSED_MESSAGE_DAYS). */
export interface RefusedMessage {
  id: string;
  botId: string;
  /** The filter's reason, as chat's `blocked` answer names it. */
  reason: string;
  content: string;
  createdAt: Date;
}

export const NOTIFICATION_KINDS = ['conversation_started', 'lead_captured', 'owner_key_cap_reached', 'owner_key_refused'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Notification {
  id: string;
  userId: string;
  kind: NotificationKind;
  payload: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

export interface BotTokenInfo {
  id: string;
  botId: string;
  name: string;
  lastFour: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** One page of a keyset-paginated list, newest first. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
