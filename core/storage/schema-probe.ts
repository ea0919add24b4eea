import type { ReadRepositories, Storage } from './storage.js';

/** How long a probe's answer stands: monitors may ask for health every second, anonymously. */
const PROBE_TTL_MS = 5_000;

const NO_ROW = -1;
const NO_UUID = '00000000-0000-0000-0000-000000000000';

/** Tables read by their id; those without one are read by their first key. */
const TABLES = [
  'users',
  'tokens',
  'organizations',
  'invitations',
  'projects',
  'branches',
  'heads',
  'versions',
  'testbeds',
  'benchmarks',
  'measures',
  'series',
  'thresholds',
  'models',
  'alerts',
  'reports',
  'plots',
  'runners',
  'jobs',
  'regressions',
  'regressionEvents',
] as const satisfies readonly (keyof ReadRepositories)[];

/** One read of every core table that finds nothing: a table or a column it names that is missing fails it. */
async function readEveryTable(r: ReadRepositories): Promise<void> {
  for (const table of TABLES) await r[table].find({ id: NO_ROW });
  await r.roles.find({ organization_id: NO_ROW });
  await r.runnerSpecs.find({ runner_id: NO_ROW });
  await r.regressionSeries.find({ regression_id: NO_ROW });
  await r.regressionAlerts.find({ alert_id: NO_ROW });
  await r.metrics.byUuid(NO_ROW, NO_UUID);
}

/**
 * Whether every core table of the database answers a read, as the health endpoint reports it: a table dropped or
 * altered by hand or by another program otherwise shows only when a request needs it. The answer is kept for
 * a few seconds, so however often health is asked, the database does this work at most that often.
 */
export class SchemaProbe {
  #last: { readonly at: number; readonly ok: Promise<boolean> } | undefined;

  constructor(
    private readonly storage: Pick<Storage, 'read'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True when every core table answered the last probe (made now if the last is older than a few seconds). */
  ok(): Promise<boolean> {
    const at = this.now();
    if (this.#last && at - this.#last.at < PROBE_TTL_MS) return this.#last.ok;
    const ok = this.storage.read(readEveryTable).then(
      () => true,
      () => false,
    );
    this.#last = { at, ok };
    return ok;
  }
}
