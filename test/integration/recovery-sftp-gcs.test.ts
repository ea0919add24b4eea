import { describeRecovery, SFTP_AND_GCS } from '../helpers/recovery.js';
import { REPLICA_SCHEMES } from '../helpers/replicas.js';

// sftp (with a key, with a password) and gcs; recovery.test.ts checks the other schemes beside this file
describeRecovery(REPLICA_SCHEMES.filter((scheme) => SFTP_AND_GCS.includes(scheme.scheme)));
