import type { ConfigIssue } from '../errors.js';
import { packageInfo } from '../package-info.js';
import type { Config, ReplicaConfig } from './schema.js';

/**
 * The client packages of each replica scheme. They are optional peer dependencies: their trees are most of an
 * install and most servers use none of them, so whoever configures a store installs its client beside Benchtrack.
 */
const CLIENTS: Record<ReplicaConfig['scheme'], readonly string[]> = {
  file: [],
  s3: ['@aws-sdk/client-s3', '@aws-sdk/lib-storage'],
  abs: ['@azure/storage-blob'],
  gcs: ['@google-cloud/storage'],
  sftp: ['ssh2'],
};

/** Resolves a package specifier from Benchtrack's own modules, or throws when it is not installed. */
export type ResolvePackage = (specifier: string) => unknown;

const resolveHere: ResolvePackage = (specifier) => import.meta.resolve(specifier);

/**
 * One issue per configured replica or data store whose client package is not installed, naming the command that
 * installs it, so that a server never starts (or takes an update) it could not replicate or back up with.
 */
export function missingPackageIssues(
  config: Pick<Config, 'database' | 'plus'>,
  resolve: ResolvePackage = resolveHere,
): ConfigIssue[] {
  const uses: { path: string; packages: readonly string[] }[] = (
    config.plus?.disaster_recovery?.replicas ?? []
  ).map((replica, index) => ({
    path: `plus.disaster_recovery.replicas[${index}].scheme`,
    packages: CLIENTS[replica.scheme],
  }));
  if (config.database.data_store) uses.push({ path: 'database.data_store', packages: CLIENTS.s3 });
  const issues: ConfigIssue[] = [];
  for (const { path, packages } of uses) {
    const missing = packages.filter((specifier) => !installed(specifier, resolve));
    if (missing.length === 0) continue;
    const ranges = packageInfo().peerDependencies;
    const install = missing.map((name) => (ranges[name] ? `'${name}@${ranges[name]}'` : name)).join(' ');
    issues.push({
      path,
      message: `needs ${missing.join(' and ')}, not installed: run npm install ${install} where benchtrack is installed (with -g for a global install)`,
    });
  }
  return issues;
}

function installed(specifier: string, resolve: ResolvePackage): boolean {
  try {
    resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
