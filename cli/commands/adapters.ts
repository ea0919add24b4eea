import type { Command } from 'commander';
import { describe } from '../lib/command-catalogue.js';
import { collect } from '../lib/options.js';

const EXAMPLES = `
Examples:
  benchtrack adapters
  benchtrack adapters --json | jq -r '.adapters[].id'`;

/** `benchtrack adapters`: the adapter ids, their aliases and what each reads, plus groups and magic. */
export function registerAdaptersCommand(program: Command): void {
  program
    .command('adapters')
    .description(describe('adapters'))
    .option('--json', 'print JSON instead of a table')
    .option('--plugin <module>', 'also list a third-party adapter module (repeatable)', collect)
    .addHelpText('after', EXAMPLES)
    .action(async (options: { json?: boolean; plugin?: string[] }) => {
      const { listAdapters } = await import('../lib/adapters-list.js');
      process.stdout.write(await listAdapters(options));
    });
}
