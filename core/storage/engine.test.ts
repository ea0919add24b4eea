import { describe, expect, it } from 'vitest';
import { ConfigError, PluginError } from '../errors.js';
import { defineStorage } from '../plugins/contracts.js';
import { PluginRegistry } from '../plugins/registry.js';
import { chooseStorage } from './engine.js';

const engine = (id: string, schemes: string[]) =>
  defineStorage({
    id,
    description: `${id} engine`,
    capabilities: { singleWriter: false, columnarReads: true },
    schemes,
    open: () => Promise.reject(new Error('not opened in this test')),
  });

function registry(): PluginRegistry {
  const plugins = new PluginRegistry();
  plugins.register(engine('embedded', ['file']));
  plugins.register(engine('server', ['postgres', 'postgresql']));
  return plugins;
}

describe('chooseStorage', () => {
  it('opens database.file with the engine serving file when no URL is given', () => {
    const choice = chooseStorage(registry(), { file: '/data/b.db' });
    expect(choice.plugin.id).toBe('embedded');
    expect(choice.options).toEqual({ file: '/data/b.db' });
  });

  it.each(['postgres://u:p@h/db', 'postgresql://h/db', 'POSTGRES://h/db'])(
    'opens %s with the engine serving its scheme, with the URL as its option',
    (url) => {
      const choice = chooseStorage(registry(), { file: '/ignored.db', url });
      expect(choice.plugin.id).toBe('server');
      expect(choice.options).toEqual({ url });
    },
  );

  it('names database.url, its scheme and the known schemes when no engine serves it', () => {
    const error = (() => {
      try {
        chooseStorage(registry(), { file: '/d.db', url: 'mysql://u:secret-pw@h/db' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'invalid configuration (configuration): database.url: uses the scheme mysql:, which no storage plugin serves (known: file, postgres, postgresql); add the plugin that does to plugins',
    );
  });
});

describe('storage plugin schemes', () => {
  it('refuses a storage plugin without a scheme', () => {
    expect(() => new PluginRegistry().register(engine('none', []))).toThrow(
      /schemes must list at least one URL scheme/,
    );
  });

  it('refuses a scheme another engine already serves, naming both', () => {
    const plugins = registry();
    expect(() => plugins.register(engine('other', ['mysql', 'postgresql']))).toThrow(PluginError);
    expect(() => plugins.register(engine('other', ['postgresql']))).toThrow(
      'plugin "other" (storage) serves the URL scheme "postgresql", already served by plugin "server" (storage)',
    );
    expect(plugins.find('storage', 'other')).toBeUndefined();
  });
});
