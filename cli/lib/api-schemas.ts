/**
 * core's schemas of the API's answers, which resource commands check answers against. Taken from their modules
 * rather than core's index, which also loads the logger, the configuration, tokens and the statistics: that
 * would cost every command about half a second of start-up.
 */
export * from '../../core/schemas/accounts.js';
export * from '../../core/schemas/changes.js';
export * from '../../core/schemas/common.js';
export * from '../../core/schemas/dimensions.js';
export * from '../../core/schemas/perf.js';
export * from '../../core/schemas/plus.js';
export * from '../../core/schemas/regressions.js';
export * from '../../core/schemas/reports.js';
export * from '../../core/schemas/runners.js';
export * from '../../core/schemas/jobs.js';
export * from '../../core/schemas/notifications.js';
export * from '../../core/schemas/server.js';
