/**
 * `benchtrack/plugin-kit/testing`: the contract suites, one per plugin kind. Every built-in plugin passes its
 * kind's suite, and a third-party plugin's tests call the same function (with vitest, and fast-check installed
 * as the author's dev dependencies). The export list is checked by `kit/api.test.ts` against
 * `kit/testing-api.txt`.
 */
export { describeAdapterContract, type AdapterContractOptions } from './testing/adapter.js';
export { describeModelContract, type ModelContractOptions } from './testing/model.js';
export { describeStorageContract, type StorageHarness } from './testing/storage.js';
export { silentLogger } from './testing/storage/harness.js';
