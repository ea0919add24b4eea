import { describeReplication } from '../helpers/replication.js';
import { REPLICA_SCHEMES } from '../helpers/replicas.js';

describeReplication(REPLICA_SCHEMES);
