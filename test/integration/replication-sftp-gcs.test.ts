import { describeReplication, SFTP_AND_GCS } from '../helpers/replication.js';
import { REPLICA_SCHEMES } from '../helpers/replicas.js';

// sftp (with a key, with a password) and gcs; replication.test.ts checks the other schemes beside this file
describeReplication(REPLICA_SCHEMES.filter((scheme) => SFTP_AND_GCS.includes(scheme.scheme)));
