import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../cli/lib/command-catalogue.js';
import { runCliAsync } from './run-cli.js';

vi.setConfig({ testTimeout: 120_000 });

describe('benchtrack --help', () => {
  it('lists every command of the catalogue, with examples', async () => {
    const { status, stdout } = await runCliAsync(['--help']);
    expect(status).toBe(0);
    for (const { name } of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${name}[ |]`, 'm'));
    expect(stdout).toContain('Examples:\n  benchtrack up');
  });

  it.each(COMMANDS.map((c) => [c.name, c.aliases ?? []] as const))(
    'shows examples for %s and each of its subcommands',
    async (name, aliases) => {
      const names = [name, ...aliases].join('|');
      const { status, stdout } = await runCliAsync([name, '--help']);
      expect(status).toBe(0);
      expect(stdout).toContain(`Usage: benchtrack ${name}`);
      const examples = stdout.slice(stdout.indexOf('\nExamples:\n'));
      expect(examples, stdout).toMatch(new RegExp(`^  (cargo bench \\| )?benchtrack (${names}) `, 'm'));
      // A group shows one example per subcommand.
      const subcommands = stdout.match(/^Commands:\n([\s\S]*?)\n\n/m)?.[1] ?? '';
      const subs = [...subcommands.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]).filter((n) => n !== 'help');
      for (const sub of subs)
        expect(examples, `${name} ${sub}`).toMatch(new RegExp(`benchtrack (${name}|\\w+) ${sub}\\b`));
    },
  );
});
