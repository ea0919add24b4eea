/**
 * `benchtrack/plugin-kit`: everything a plugin author needs, and nothing else. Benchtrack's own adapters, models
 * and storage engines import only this module, so a third-party plugin can do whatever a built-in does. The
 * list of exports is checked by `kit/api.test.ts` against `kit/api.txt`: changing it is a deliberate act.
 * The contract suites are the sibling entry `benchtrack/plugin-kit/testing`.
 */

// Plugin contracts and the define* helpers (they fill in `kind` and `apiVersion`).
export { PLUGIN_API_VERSION, defineAdapter, defineModel, defineStorage } from '../core/plugins/contracts.js';
export type {
  AdapterPlugin,
  AdapterSettings,
  Average,
  ModelLimits,
  ModelParams,
  ModelPlugin,
  Plugin,
  PluginKind,
  PluginMeta,
  StorageContext,
  StoragePlugin,
} from '../core/plugins/contracts.js';

// Benchmark Metric Format: what an adapter returns.
export { MAX_BENCHMARK_NAME_BYTES, bmfSchema, parseBmf, parseBmfText, setOwn } from '../core/bmf.js';
export type { Bmf, BmfMeasures, BmfMetric, BmfParseResult } from '../core/bmf.js';

// Threshold models: the standard parameter schema, and how the service calls `limits`.
export { modelParamsSchema } from '../core/boundaries/params.js';
export type { BoundaryRule, ModelParamRules } from '../core/boundaries/params.js';
export { evaluateModel } from '../core/boundaries/evaluate.js';

// Change-point detection, for models that confirm change points (`ModelPlugin.changePoints`).
export { DETECTION_DEFAULTS } from '../core/detection/params.js';
export { detectChangePoints } from '../core/detection/detect.js';
export type { ChangePoint, DetectionParams } from '../core/detection/detect.js';

// Errors a plugin may throw; the service maps them to HTTP statuses by name.
export {
  BenchtrackError,
  ConflictError,
  InputError,
  InternalError,
  NotFoundError,
  PluginError,
  StorageError,
  UnavailableError,
  errorName,
} from '../core/errors.js';
export type { ErrorCode, ErrorDetails } from '../core/errors.js';

// Storage engines: the repository interfaces, the records they hold, the columnar answers and the helpers that
// build those answers from plain rows (for engines that find rows one by one).
export { scopedRepositories } from '../core/storage/scope.js';
export { historyColumns, perfColumns, perfLinesOf } from '../core/storage/columns.js';
export type { HistorySample, PerfPoint } from '../core/storage/columns.js';
export type * from '../core/storage/storage.js';
export type * from '../core/storage/records.js';
export type * from '../core/storage/tables.js';
export type { Logger } from '../core/logging.js';
