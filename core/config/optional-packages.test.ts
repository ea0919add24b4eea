import { describe, expect, it } from 'vitest';
import { packageInfo } from '../package-info.js';
import { parseConfigDocument } from './load.js';
import { missingPackageIssues, type ResolvePackage } from './optional-packages.js';

const source = { kind: 'env', description: 'test' } as const;
const secret = 'replica-secret-0001';
const document = {
  database: {
    data_store: {
      service: 'cloud_s3',
      access_key_id: 'id',
      secret_access_key: secret,
      access_point: 'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups',
    },
  },
  plus: {
    disaster_recovery: {
      replicas: [
        { scheme: 'file', path: '/var/backups/benchtrack' },
        { scheme: 's3', bucket: 'b', access_key_id: 'id', secret_access_key: secret },
        { scheme: 'abs', account_name: 'a', bucket: 'b', account_key: secret },
        { scheme: 'gcs', bucket: 'b' },
        { scheme: 'sftp', host: 'h', user: 'u', password: secret },
      ],
    },
  },
};
const { config } = parseConfigDocument(document, source);

/** Node's resolution, except that the packages named are not installed. */
const without =
  (...absent: string[]): ResolvePackage =>
  (specifier) => {
    if (absent.includes(specifier))
      throw Object.assign(new Error('not found'), { code: 'ERR_MODULE_NOT_FOUND' });
    return import.meta.resolve(specifier);
  };

describe('missingPackageIssues', () => {
  it('accepts a configuration whose clients are installed, and one without replicas or data store', () => {
    expect(missingPackageIssues(config)).toEqual([]);
    expect(missingPackageIssues(parseConfigDocument({}, source).config, without('ssh2'))).toEqual([]);
  });

  it('names each store whose client is missing, the packages and how to install them', () => {
    const ranges = packageInfo().peerDependencies;
    const issues = missingPackageIssues(
      config,
      without(
        '@aws-sdk/client-s3',
        '@aws-sdk/lib-storage',
        '@azure/storage-blob',
        '@google-cloud/storage',
        'ssh2',
      ),
    );
    const s3 = `needs @aws-sdk/client-s3 and @aws-sdk/lib-storage, not installed: run npm install '@aws-sdk/client-s3@${ranges['@aws-sdk/client-s3']}' '@aws-sdk/lib-storage@${ranges['@aws-sdk/lib-storage']}' where benchtrack is installed (with -g for a global install)`;
    expect(issues).toEqual([
      { path: 'plus.disaster_recovery.replicas[1].scheme', message: s3 },
      {
        path: 'plus.disaster_recovery.replicas[2].scheme',
        message: `needs @azure/storage-blob, not installed: run npm install '@azure/storage-blob@${ranges['@azure/storage-blob']}' where benchtrack is installed (with -g for a global install)`,
      },
      {
        path: 'plus.disaster_recovery.replicas[3].scheme',
        message: `needs @google-cloud/storage, not installed: run npm install '@google-cloud/storage@${ranges['@google-cloud/storage']}' where benchtrack is installed (with -g for a global install)`,
      },
      {
        path: 'plus.disaster_recovery.replicas[4].scheme',
        message: `needs ssh2, not installed: run npm install 'ssh2@${ranges.ssh2}' where benchtrack is installed (with -g for a global install)`,
      },
      { path: 'database.data_store', message: s3 },
    ]);
    expect(ranges['@aws-sdk/client-s3']).toMatch(/^\^3\./);
  });

  it('names only what is missing', () => {
    expect(
      missingPackageIssues(config, without('@aws-sdk/lib-storage')).map((issue) => issue.message),
    ).toEqual([
      expect.stringMatching(
        /^needs @aws-sdk\/lib-storage, not installed: run npm install '@aws-sdk\/lib-storage@/,
      ),
      expect.stringMatching(/^needs @aws-sdk\/lib-storage, not installed/),
    ]);
  });
});
