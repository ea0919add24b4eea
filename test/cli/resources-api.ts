import { expect } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCli, type CliResult } from './run-cli.js';

/** An API process with Ada signed up, and the CLI pointed at it with `token` (a session token at first). */
export interface ResourcesApi {
  readonly api: ApiServer;
  /** Ada's personal organization. */
  readonly org: string;
  readonly sessionToken: string;
  token: string;
  /** Runs the CLI with the token. */
  cli(args: readonly string[], input?: string): CliResult;
  /** The same, expecting exit status 0; the JSON it printed. */
  json(args: readonly string[], input?: string): any;
}

export async function startResourcesApi(): Promise<ResourcesApi> {
  const api = await startApiServer();
  const session = await api.signUp('Ada Lovelace', 'ada@example.com');
  const resources: ResourcesApi = {
    api,
    org: session.user.slug,
    sessionToken: session.token,
    token: session.token,
    cli: (args, input) =>
      runCli(args, input, { env: { BENCHTRACK_HOST: api.url, BENCHTRACK_API_TOKEN: resources.token } }),
    json(args, input) {
      const result = resources.cli(args, input);
      expect(result.status, `${args.join(' ')}\n${result.stderr}`).toBe(0);
      return JSON.parse(result.stdout);
    },
  };
  return resources;
}

/** The runs of parse's latency on Engine's main and ci, under a percentage threshold: the last raises an alert. */
export const ENGINE_LATENCIES = [10, 11, 10, 100];

/** `benchtrack run` into Engine on main and ci, with that threshold, printing the report as JSON. */
export const ENGINE_RUN = [
  'run',
  '--project',
  'engine',
  '--adapter',
  'json',
  '--quiet',
  '--format',
  'json',
  '--branch',
  'main',
  '--testbed',
  'ci',
  '--threshold-measure',
  'latency',
  '--threshold-test',
  'percentage',
  '--threshold-upper-boundary',
  '0.5',
];

export function parseLatency(value: number): string {
  return `{"parse": {"latency": {"value": ${value}}}}`;
}
