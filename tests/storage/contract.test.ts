import { describeEachAdapter } from '../support/storage.ts';
import { storageContract } from './contract/index.ts';

// One suite, unchanged, per adapter; the Postgres half needs SVC_TEST_POSTGRES_URL (tests/support/storage.ts says so when skipped).
describeEachAdapter('storage contract', (adapter) => storageContract(adapter));
