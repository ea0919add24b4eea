#!/usr/bin/env node
// Entry of `benchtrack-console`, the web console's host (compiled JavaScript; the app is built into dist/console/app).
import('../dist/console/host.js').catch((error) => {
  process.stderr.write(`benchtrack-console: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
