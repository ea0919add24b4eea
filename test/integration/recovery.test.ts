import { describeRecovery } from '../helpers/recovery.js';
import { REPLICA_SCHEMES } from '../helpers/replicas.js';

describeRecovery(REPLICA_SCHEMES);
