import { Option, type Command } from 'commander';
import type { ApiContext } from './api-context.js';
import { COMMANDS, describe } from './command-catalogue.js';
import { addBackendOptions, numberIn, type BackendOptions } from './backend-options.js';

/** The first example of each API command, shown again in its group's help. */
const firstExamples = new WeakMap<Command, string>();

/** What a resource command does once its arguments are parsed; it runs with the API client loaded. */
export type ApiHandler<O> = (ctx: ApiContext, args: string[], options: O & BackendOptions) => Promise<void>;

export interface ApiCommandSpec {
  /** Name and arguments, as commander takes them: `view <project> <branch>`. */
  readonly name: string;
  readonly description: string;
  readonly aliases?: readonly string[];
  /** Command lines shown under "Examples:" in --help. */
  readonly examples: readonly string[];
  /** A sentence or two after the examples. */
  readonly notes?: string;
}

/**
 * Declares a subcommand that calls the API: backend options, examples in --help, and an action that loads the
 * client (and with it core and zod) only when it runs, so `benchtrack --help` never pays for them.
 */
export function apiCommand<O>(
  parent: Command,
  spec: ApiCommandSpec,
  configure: (command: Command) => void,
  handler: ApiHandler<O>,
): Command {
  const command = parent.command(spec.name).description(spec.description);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  configure(command);
  addBackendOptions(command);
  addExamples(parent, command, spec.examples, spec.notes);
  command.action(async (...received: unknown[]) => {
    // commander passes the arguments, then the options, then the command itself.
    const options = received.at(-2) as O & BackendOptions;
    const args = received
      .slice(0, -2)
      .flatMap((a) => (Array.isArray(a) ? (a as string[]) : a === undefined ? [] : [String(a)]));
    const { apiContext } = await import('./api-context.js');
    await handler(apiContext(options), args, options);
  });
  return command;
}

/**
 * The examples (and notes) of a subcommand's --help; its group's help shows the first. For subcommands that do
 * not call the API through `apiCommand` (`runner up`).
 */
export function addExamples(
  parent: Command,
  command: Command,
  examples: readonly string[],
  notes?: string,
): void {
  firstExamples.set(command, examples[0] ?? '');
  // A nested group (`server config`) is shown in its parent's help by its first command's example.
  if (!firstExamples.has(parent)) firstExamples.set(parent, examples[0] ?? '');
  command.addHelpText(
    'after',
    `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}${notes ? `\n\n${notes}` : ''}`,
  );
}

/**
 * A group command (`branch`, `server config`) whose --help lists its subcommands. A top-level group's
 * description and aliases come from the catalogue, which `benchtrack --help` shows without loading modules.
 */
export function group(parent: Command, name: string, description?: string): Command {
  const command = parent.command(name).description(description ?? describe(name));
  // A group's help shows the first example of each of its subcommands (and of nested groups').
  command.addHelpText('after', () => {
    const examples = command.commands.map((sub) => firstExamples.get(sub)).filter(Boolean);
    return examples.length > 0 ? `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}` : '';
  });
  const entry = COMMANDS.find((candidate) => candidate.name === name);
  for (const alias of description === undefined ? (entry?.aliases ?? []) : []) command.alias(alias);
  return command;
}

export interface ListOptions {
  readonly perPage?: number;
  readonly page?: number;
  readonly sort?: string;
  readonly direction?: 'asc' | 'desc';
  readonly search?: string;
  readonly name?: string;
  readonly archived?: boolean;
}

/** The pagination and search options of list commands (reference: per_page default 8, at most 255). */
export function listOptions(
  command: Command,
  sorts: readonly string[],
  {
    search = true,
    name = search,
    archived = false,
  }: { search?: boolean; name?: boolean; archived?: boolean } = {},
): void {
  command
    .option('--per-page <n>', 'items per page (1-255, default 8)', numberIn(1, 255))
    .option('--page <n>', 'page number, from 1', numberIn(1, 2 ** 31))
    .addOption(new Option('--sort <field>', 'sort by').choices([...sorts]))
    .addOption(new Option('--direction <direction>', 'sort direction').choices(['asc', 'desc']));
  if (search) command.option('--search <text>', 'only those whose name, slug or UUID contains the text');
  if (name) command.option('--name <name>', 'only the one with exactly this name');
  if (archived) command.option('--archived', 'list the archived ones instead');
}

/** The query string of a list command. */
export function listQuery(options: ListOptions): Record<string, string | number | boolean | undefined> {
  return {
    per_page: options.perPage,
    page: options.page,
    sort: options.sort,
    direction: options.direction,
    search: options.search,
    name: options.name,
    archived: options.archived ? true : undefined,
  };
}

/** Path segment of a user-given UUID, slug or name. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
