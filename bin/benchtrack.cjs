#!/usr/bin/env node
// Entry of the `benchtrack` command-line client (compiled JavaScript).
import('../dist/cli/main.js').catch((error) => {
  process.stderr.write(`benchtrack: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
