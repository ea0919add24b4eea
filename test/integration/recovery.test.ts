import { describeRecovery, SFTP_AND_GCS } from '../helpers/recovery.js';
import { REPLICA_SCHEMES } from '../helpers/replicas.js';

// every scheme but sftp and gcs, which recovery-sftp-gcs.test.ts checks beside this file
describeRecovery(REPLICA_SCHEMES.filter((scheme) => !SFTP_AND_GCS.includes(scheme.scheme)));
