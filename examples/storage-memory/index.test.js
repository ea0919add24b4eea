import { describeStorageContract, silentLogger } from 'benchtrack/plugin-kit/testing';
import { describe, expect, it } from 'vitest';
import memory from './index.js';

const logger = silentLogger();

let counter = 0;
describeStorageContract('memory', () => {
  // databases live as long as the process; a name per test keeps them apart
  const url = `memory://contract-${++counter}`;
  return {
    open: () => memory.open({ url }, { logger }),
    reopen: () => memory.open({ url }, { logger }),
    cleanup: async () => undefined,
  };
});

describe('memory storage', () => {
  it('names the rule when the URL does not name a database', async () => {
    await expect(memory.open({ url: 'memory://' }, { logger })).rejects.toThrow(
      "database.url must be memory://<name> (letters, digits, '.', '_' or '-'), got memory://",
    );
  });

  it('keeps databases of different names apart', async () => {
    const [a, b] = await Promise.all(
      ['apart-a', 'apart-b'].map((name) => memory.open({ url: `memory://${name}` }, { logger })),
    );
    await a.transaction((tx) => tx.meta.set('owner', 'a'));
    expect(await b.read((r) => r.meta.get('owner'))).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });
});
