#!/usr/bin/env node
// DuckDB queries occupy libuv threadpool threads; the pool size must be set before the pool first starts,
// which a CommonJS entry (synchronous loading) guarantees. The program is the compiled server bundled by
// scripts/bundle.mjs.
process.env.UV_THREADPOOL_SIZE ??= '16';
import('../dist/api-bundle/main.js').catch((error) => {
  process.stderr.write(`benchtrack-api: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
