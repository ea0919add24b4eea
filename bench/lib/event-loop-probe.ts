/**
 * Loaded into each `benchtrack-api` process a bench starts (`--import`, see api-process.ts): answers the
 * process's event-loop utilization so far (perf_hooks, cumulative idle and active milliseconds) when the bench
 * asks over the IPC channel. The server exits by itself on SIGTERM, so the channel never keeps it alive.
 */
import { performance } from 'node:perf_hooks';

process.on('message', (message) => {
  if (message === 'event-loop') process.send?.(performance.eventLoopUtilization());
});
