import { accountRepositoriesContract } from '../contracts/account-repositories.contract.ts';
import { inMemoryRepositories } from '../fakes/in-memory-repositories.ts';

accountRepositoriesContract('in-memory', async () => inMemoryRepositories());
