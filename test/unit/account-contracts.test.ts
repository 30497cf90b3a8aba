import { accountRepositoriesContract } from '../contracts/account-repositories.contract.ts';
import { chatAdmissionContract } from '../contracts/chat-admission.contract.ts';
import { signInThrottleContract } from '../contracts/sign-in-throttle.contract.ts';
import { InMemorySignInThrottle } from '../fakes/in-memory-sign-in-throttle.ts';
import { InMemoryChatAdmission } from '../fakes/in-memory-chat-admission.ts';
import { InMemoryRateLimiter } from '../fakes/in-memory-rate-limiter.ts';
import { inMemoryRepositories } from '../fakes/in-memory-repositories.ts';

accountRepositoriesContract('in-memory', async () => inMemoryRepositories());

chatAdmissionContract('in-memory', async () => {
  const repos = inMemoryRepositories();
  return { admission: new InMemoryChatAdmission(repos.bots, new InMemoryRateLimiter()), users: repos.users, bots: repos.bots };
});

signInThrottleContract('in-memory', async () => new InMemorySignInThrottle());
