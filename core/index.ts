/** The public contract of Benchtrack's engine. Plugins, workers, the server and the CLI import from here only. */
export * from './errors.js';
export * from './issues.js';
export * from './bmf.js';
export * from './config/schema.js';
export * from './config/load.js';
export * from './config/redact.js';
export * from './logging.js';
export * from './package-info.js';
export * from './plugins/contracts.js';
export * from './plugins/registry.js';
export * from './storage/storage.js';
export * from './bmf-json-schema.js';
export * from './adapters/fold.js';
export * from './adapters/selection.js';
