import { accountLifecycleContract } from '../contracts/account-lifecycle.contract.ts';
import { InMemoryAccountRepository, InMemoryAccountTokenRepository, InMemorySessionDirectory } from '../fakes/in-memory-account-lifecycle.ts';
import { InMemoryUserRepository } from '../fakes/in-memory-user-repository.ts';

accountLifecycleContract('in memory', async () => {
  const users = new InMemoryUserRepository();
  const sessions = new InMemorySessionDirectory();
  return {
    users,
    accounts: new InMemoryAccountRepository(users),
    links: new InMemoryAccountTokenRepository(),
    sessions,
    addSession: async (sid, userId) => sessions.add(sid, userId),
  };
});
