import { browserName } from '../domain/browser-name.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { OwnerSession, SessionDirectory } from './ports.ts';

export interface ListedSession extends OwnerSession {
  browser: string;
}

export const makeListSessions =
  (d: { sessions: SessionDirectory }) =>
  async (userId: string, currentSid: string): Promise<ListedSession[]> =>
    (await d.sessions.list(userId, currentSid)).map((session) => ({ ...session, browser: browserName(session.userAgent) }));

export const makeRevokeSession =
  (d: { sessions: SessionDirectory }) =>
  async (userId: string, sessionId: string): Promise<Result<{ revoked: true }, { type: 'not_found' }>> =>
    (await d.sessions.revoke(userId, sessionId)) ? ok({ revoked: true }) : err({ type: 'not_found' });

export const makeRevokeOtherSessions =
  (d: { sessions: SessionDirectory }) =>
  async (userId: string, currentSid: string): Promise<{ signedOut: number }> => ({ signedOut: await d.sessions.revokeAllExcept(userId, currentSid) });
