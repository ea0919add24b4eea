import { ADAPTER_GROUPS, MAGIC, MAGIC_ORDER } from '../../core/adapters/selection.js';
import { adapterRegistry } from './parse.js';

/** The text of `benchtrack adapters`: a table (or JSON) of adapters, then groups and magic's order. */
export async function listAdapters(options: { json?: boolean; plugin?: readonly string[] }): Promise<string> {
  const registry = await adapterRegistry(options.plugin);
  const adapters = registry.list('adapter').map(({ plugin, module }) => ({
    id: plugin.id,
    aliases: [...(plugin.aliases ?? [])],
    description: plugin.description,
    reads: plugin.reads,
    ...(module ? { module } : {}),
  }));
  if (options.json) {
    const groups = Object.entries(ADAPTER_GROUPS).map(([id, members]) => ({ id, members: [...members] }));
    return `${JSON.stringify({ adapters, groups, magic: [...MAGIC_ORDER] }, null, 2)}\n`;
  }
  const width = Math.max(...adapters.map((a) => a.id.length));
  const rows = adapters.map((a) => {
    const aliases = a.aliases.length > 0 ? ` (aliases: ${a.aliases.join(', ')})` : '';
    return `${a.id.padEnd(width)}  ${a.description}${aliases}\n${' '.repeat(width)}  reads: ${a.reads}`;
  });
  const groups = Object.entries(ADAPTER_GROUPS).map(
    ([id, members]) => `  ${id.padEnd(8)} ${members.join(' -> ')}`,
  );
  return [
    'Adapters:',
    ...rows,
    '',
    'Language groups (try their adapters in order, the first that finds benchmarks wins):',
    ...groups,
    '',
    `${MAGIC} (the default) tries: ${MAGIC_ORDER.join(' -> ')}`,
    '',
  ].join('\n');
}
