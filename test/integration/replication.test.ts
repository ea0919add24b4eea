import { describeReplication, SFTP_AND_GCS } from '../helpers/replication.js';
import { REPLICA_SCHEMES } from '../helpers/replicas.js';

// every scheme but sftp and gcs, which replication-sftp-gcs.test.ts checks beside this file
describeReplication(REPLICA_SCHEMES.filter((scheme) => !SFTP_AND_GCS.includes(scheme.scheme)));
