import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { describeStorageContract } from '../../../kit/testing.js';
import { startPostgres, type LocalPostgres } from '../../../test/helpers/postgres.js';
import { postgresStorage } from './index.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
let cluster: LocalPostgres;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(() => cluster?.stop());
let counter = 0;

describeStorageContract('postgres', () => {
  const url = (async () => cluster.createDatabase(`contract_${counter++}`))();
  return {
    open: async () => postgresStorage.open({ url: await url }, { logger }),
    reopen: async () => postgresStorage.open({ url: await url }, { logger }),
    cleanup: async () => undefined,
  };
});
