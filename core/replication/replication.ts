import { mkdir, rm } from 'node:fs/promises';
import type { ReplicaConfig } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { Replication, Storage } from '../storage/storage.js';
import { durationMs } from './duration.js';
import { openStore } from './open-store.js';
import { Replica, type ReplicaStatus } from './replica.js';
import { withSharedSnapshots } from './shared-snapshots.js';

export interface ReplicationSettings {
  readonly replicas: readonly ReplicaConfig[];
  /** A scratch directory of its own, on the database's disk (snapshots are staged there). */
  readonly work: string;
  /** Opens a database file with the storage engine (validation restores into a scratch file). */
  readonly open: (file: string) => Promise<Storage>;
  /** How long a replica's store may go without answering or moving a byte (30 s by default). */
  readonly stallMs?: number;
}

/** `plus.disaster_recovery`: every replica of the configuration, each in a loop of its own. */
export class ReplicationService {
  readonly #replicas: Replica[] = [];

  private constructor(private readonly settings: ReplicationSettings) {}

  /** Checks the storage can replicate and opens every replica's store (nothing is contacted yet). */
  static async create(
    storage: Storage,
    settings: ReplicationSettings,
    logger: Logger,
  ): Promise<ReplicationService> {
    const service = new ReplicationService(settings);
    const replication = storage.replication;
    if (settings.replicas.length > 0 && !replication)
      throw new ConfigError('configuration', [
        {
          path: 'plus.disaster_recovery',
          message:
            'replicates the embedded database only, and this storage engine cannot replicate: use the database server\'s own replication and backups (README, "Scaling out"), and remove plus.disaster_recovery',
        },
      ]);
    const shared = replication && withSharedSnapshots(replication, `${settings.work}/shared`);
    for (const [index, config] of settings.replicas.entries()) {
      const log = logger.child({ replica: index, scheme: config.scheme });
      const { store, prefix } = await openStore(
        config,
        (host_key) =>
          log.warn(
            { host_key },
            `the sftp server's host key is not checked: confirm this fingerprint with the server's administrator and set plus.disaster_recovery.replicas[${index}].host_key to it`,
          ),
        settings.stallMs,
      );
      service.#replicas.push(
        new Replica(
          config.scheme,
          store,
          prefix,
          {
            sync: durationMs(config.sync_interval),
            snapshot:
              config.snapshot_interval === undefined ? undefined : durationMs(config.snapshot_interval),
            retention: durationMs(config.retention),
            retentionCheck: durationMs(config.retention_check_interval),
            validation:
              config.validation_interval === undefined ? undefined : durationMs(config.validation_interval),
          },
          shared as Replication,
          `${settings.work}/${index}`,
          settings.open,
          log,
        ),
      );
    }
    return service;
  }

  async start(): Promise<void> {
    await rm(this.settings.work, { recursive: true, force: true });
    for (let index = 0; index < this.#replicas.length; index += 1)
      await mkdir(`${this.settings.work}/${index}`, { recursive: true });
    await mkdir(`${this.settings.work}/shared`, { recursive: true });
    for (const replica of this.#replicas) replica.start();
  }

  /** Stops every loop after a last sync (call before the storage closes). */
  async stop(): Promise<void> {
    await Promise.all(this.#replicas.map((replica) => replica.stop()));
    await rm(this.settings.work, { recursive: true, force: true });
  }

  status(): ReplicaStatus[] {
    return this.#replicas.map((replica) => replica.status());
  }
}
