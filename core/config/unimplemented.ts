import type { ConfigIssue } from '../errors.js';
import type { ParsedConfig } from './schema.js';

/**
 * Keys of the spec's configuration document that the schema checks but nothing implements yet. A server that
 * accepted them would let an operator believe, say, that replication protects the data: they are refused.
 */
const UNIMPLEMENTED: readonly { path: string; what: string; present: (config: ParsedConfig) => boolean }[] = [
  {
    path: 'plus.codehost',
    what: 'login through a code host (OAuth2); users sign up and log in by e-mail',
    present: (config) => config.plus?.codehost !== undefined,
  },
  {
    path: 'plus.stats',
    what: 'the daily usage statistics report',
    present: (config) => config.plus?.stats !== undefined,
  },
];

/** One issue per configured key that is not implemented yet, so the server refuses to start with it. */
export function unimplementedIssues(config: ParsedConfig): ConfigIssue[] {
  return UNIMPLEMENTED.filter((key) => key.present(config)).map((key) => ({
    path: key.path,
    message: `is not implemented yet (${key.what}); remove it from the configuration`,
  }));
}
