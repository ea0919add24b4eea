import { setTimeout as sleep } from 'node:timers/promises';
import { clearState, isRunning, readState, SERVICES, type Service } from './state.js';

/** How long a service may take to drain its requests and close its database after SIGTERM. */
const GRACE_MS = 15_000;

/**
 * Stops the background processes `up` started: SIGTERM (the API drains requests and closes its database),
 * then SIGKILL if it has not exited after the grace period. Returns what it stopped.
 */
export async function stopServices(dir: string, services: readonly Service[] = SERVICES): Promise<string[]> {
  const stopped: string[] = [];
  // The console first: it talks to the API.
  for (const service of [...services].reverse()) {
    const state = await readState(dir, service);
    if (!state) continue;
    if (isRunning(state)) {
      process.kill(state.pid, 'SIGTERM');
      const deadline = Date.now() + GRACE_MS;
      while (isRunning(state) && Date.now() < deadline) await sleep(50);
      if (isRunning(state)) process.kill(state.pid, 'SIGKILL');
      stopped.push(`${service} (pid ${state.pid})`);
    }
    await clearState(dir, service);
  }
  return stopped;
}
