import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const app = fileURLToPath(new URL('./app', import.meta.url));
const out = fileURLToPath(new URL('../dist/console/app', import.meta.url));

/**
 * The console's production build: dist/console/app, hashed assets under assets/ (the host caches them for
 * good). Preact's automatic JSX runtime comes from console/app/tsconfig.json; no framework plugin is needed.
 */
export default defineConfig({
  root: app,
  base: '/',
  publicDir: false,
  build: {
    outDir: out,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 200,
  },
  server: { port: 3000 },
});
