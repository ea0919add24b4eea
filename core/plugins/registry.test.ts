import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PluginError } from '../errors.js';
import { defineAdapter, defineModel } from './contracts.js';
import { PluginRegistry } from './registry.js';

const adapter = (id: string, extra: Record<string, unknown> = {}) =>
  defineAdapter({ id, description: `parses ${id}`, reads: 'text', parse: () => null, ...extra });

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginError);
    return (error as Error).message;
  }
  throw new Error('expected a PluginError');
}

describe('PluginRegistry.register', () => {
  it('registers and finds by id and alias', () => {
    const registry = new PluginRegistry();
    registry.register(adapter('shell_hyperfine', { aliases: ['hyperfine'] }));
    expect(registry.get('adapter', 'hyperfine').plugin.id).toBe('shell_hyperfine');
    expect(registry.find('adapter', 'shell_hyperfine')?.plugin.id).toBe('shell_hyperfine');
    expect(registry.find('model', 'shell_hyperfine')).toBeUndefined();
    expect(registry.list('adapter').map((e) => e.plugin.id)).toEqual(['shell_hyperfine']);
  });

  it('rejects duplicate ids and aliases, naming both plugins', () => {
    const registry = new PluginRegistry();
    registry.register(adapter('json'));
    expect(rejection(() => registry.register(adapter('json')))).toBe(
      'plugin "json" (adapter) uses the adapter id "json", already taken by plugin "json" (adapter)',
    );
    expect(rejection(() => registry.register(adapter('bmf', { aliases: ['json'] })))).toContain(
      'plugin "bmf" (adapter) uses the adapter id "json"',
    );
  });

  it('allows the same id in different kinds', () => {
    const registry = new PluginRegistry();
    registry.register(adapter('static'));
    registry.register(
      defineModel({ id: 'static', description: 'fixed limits', params: z.object({}), limits: () => null }),
    );
    expect(registry.get('model', 'static').plugin.kind).toBe('model');
  });

  it('rejects an unsupported API version with advice', () => {
    const message = rejection(() => new PluginRegistry().register(adapter('future', { apiVersion: 2 })));
    expect(message).toContain('plugin "future" (adapter) declares apiVersion 2');
    expect(message).toContain('supported: 1');
  });

  it.each([
    [{ kind: 'adapter', id: 'x', apiVersion: 1, description: 'd', reads: 'r' }, 'parse must be a function'],
    [{ kind: 'sink', id: 'x', apiVersion: 1, description: 'd' }, 'kind must be adapter, model or storage'],
    [{ ...adapter('Bad Id') }, 'id must be lower-case words'],
    [{ ...adapter('x'), description: '' }, 'description must not be empty'],
    [
      { kind: 'model', id: 'm', apiVersion: 1, description: 'd', params: {}, limits: () => null },
      'params must be a zod schema',
    ],
    [null, 'is not a valid plugin'],
  ])('rejects an invalid definition %#', (definition, expected) => {
    expect(rejection(() => new PluginRegistry().register(definition))).toContain(expected);
  });

  it('validates options with the plugin schema and keeps the parsed options', () => {
    const registry = new PluginRegistry();
    const optionsSchema = z.strictObject({ unit: z.enum(['ns', 'ms']).default('ns') });
    expect(
      rejection(() => registry.register(adapter('opt', { optionsSchema }), { options: { unit: 'h' } })),
    ).toContain('plugin "opt" (adapter) rejected its options: unit:');
    expect(registry.register(adapter('opt', { optionsSchema })).options).toEqual({ unit: 'ns' });
  });

  it('names the known ids when a plugin is missing', () => {
    const registry = new PluginRegistry();
    registry.register(adapter('json'));
    expect(() => registry.get('adapter', 'nope')).toThrow(
      'no adapter plugin "nope" is registered (known: json)',
    );
  });
});

describe('PluginRegistry.load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-plugins-'));
  const write = (name: string, source: string) => {
    writeFileSync(join(dir, name), source);
    return name;
  };

  it('loads a default export by relative specifier and records the module', async () => {
    write(
      'one.mjs',
      `export default { kind: 'adapter', id: 'lines', apiVersion: 1, description: 'counts lines', reads: 'any text',
        parse: (text) => ({ lines: { count: { value: text.split('\\n').length } } }) };`,
    );
    const registry = new PluginRegistry();
    const [entry] = await registry.load('./one.mjs', { baseDir: dir });
    expect(entry?.module).toMatch(/^file:.*one\.mjs$/);
    expect(registry.get('adapter', 'lines').plugin.parse('a\nb', {})).toEqual({
      lines: { count: { value: 2 } },
    });
  });

  it('loads an array exported as `plugins`', async () => {
    write(
      'many.mjs',
      `const p = (id) => ({ kind: 'adapter', id, apiVersion: 1, description: id, reads: 'x', parse: () => null });
       export const plugins = [p('a1'), p('a2')];`,
    );
    const registry = new PluginRegistry();
    expect((await registry.load(join(dir, 'many.mjs'))).map((e) => e.plugin.id)).toEqual(['a1', 'a2']);
  });

  it('explains a module that cannot be loaded or exports nothing', async () => {
    write('empty.mjs', 'export const nothing = 1;');
    const registry = new PluginRegistry();
    await expect(registry.load('./empty.mjs', { baseDir: dir })).rejects.toThrow(
      'plugin module ./empty.mjs exports no plugin',
    );
    await expect(registry.load('./absent.mjs', { baseDir: dir })).rejects.toThrow(
      'cannot load plugin module ./absent.mjs',
    );
  });
});
