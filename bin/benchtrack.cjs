#!/usr/bin/env node
// Entry of the `benchtrack` command-line client: the compiled client bundled by scripts/bundle.mjs.
import('../dist/cli-bundle/main.js').catch((error) => {
  process.stderr.write(`benchtrack: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
