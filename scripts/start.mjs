// `npm start`: the API and the web console side by side (both already built by `npm run build`). Either one
// stopping stops the other, and Ctrl-C stops both, so no orphan keeps a port.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin');
const children = ['benchtrack-api.cjs', 'benchtrack-console.cjs'].map((name) =>
  spawn(process.execPath, [join(bin, name)], {
    stdio: 'inherit',
    env: { UV_THREADPOOL_SIZE: '16', ...process.env },
  }),
);

let code = 0;
let stopping = false;
function stopAll(signal) {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
for (const child of children) {
  child.on('exit', (exitCode, signal) => {
    if (!stopping) code = exitCode ?? (signal ? 1 : 0);
    stopAll('SIGTERM');
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(code);
  });
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
