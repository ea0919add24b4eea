// Bundles two of the programs tsc compiled into dist/: the `benchtrack` client (dist/cli/main.js) into
// dist/cli-bundle/ and `benchtrack-api` (dist/server/main.js) into dist/api-bundle/. A program then loads a handful
// of files instead of hundreds of modules (zod alone is 95), which is most of what starting one costs above a bare
// `node` (bench/cli-startup.bench.ts, bench/api-startup.bench.ts). Whatever a program imports on demand stays on
// demand: each dynamic import becomes a chunk of its own. Run by `npm run build` and by the tests' global setup,
// after tsc.
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/**
 * Packages the API bundle leaves to Node's own loading: native addons (DuckDB's bindings, sharp, ssh2's optional
 * one; DuckDB's JavaScript API is bundled: loaded by Node, its 181 CommonJS files went through the export scan of
 * Node's ESM interop, 150-250 ms of a start's 800 ms of CPU, `npm run bench -- api-startup`); piscina and pino,
 * which start worker threads from files of their own package (pino-pretty and thread-stream with them); nodemailer,
 * loaded only by a mail relay; and the clients of the cloud stores and of sftp, optional peer dependencies that
 * only a server whose configuration uses them has installed. Everything else the programs import is in the bundles,
 * so a package used only there is a development dependency: postgres.js among them, bundled with the patch
 * (patches/) that `npm run build` applies first, which an installed copy would not carry.
 */
const API_EXTERNAL = [
  '@duckdb/node-bindings',
  'sharp',
  'ssh2',
  'piscina',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@aws-sdk/*',
  '@azure/*',
  '@google-cloud/*',
  'nodemailer',
];

export const PROGRAMS = {
  cli: { entry: join(dist, 'cli', 'main.js'), outdir: join(dist, 'cli-bundle'), external: [] },
  api: { entry: join(dist, 'server', 'main.js'), outdir: join(dist, 'api-bundle'), external: API_EXTERNAL },
};

/**
 * `import.meta.url` in a bundled file names the bundle, not the module it came from: each compiled module that
 * reads it (package.json lookups, the check for running from source, the worker tasks' and built-in models' files)
 * gets the URL of its own file in dist/. Every chunk sits in the bundle's directory or its chunks/, so the URL is
 * rebuilt from the chunk's own location.
 */
const moduleUrls = {
  name: 'module-urls',
  setup(plugin) {
    plugin.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const fromRoot = JSON.stringify(relative(root, args.path).split('\\').join('/'));
      return {
        contents: text.replaceAll('import.meta.url', `__bundledModuleUrl(${fromRoot})`),
        loader: 'js',
      };
    });
  },
};

/** Bundles one program of {@link PROGRAMS}, into an emptied directory: chunks of an earlier build would be packed. */
export async function bundle({ entry, outdir, external }) {
  const chunks = `/${relative(dist, outdir)}/chunks/`;
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { main: entry },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    // file and line of every frame, without a copy of each bundled package's source in the installed package
    sourcesContent: false,
    logLevel: 'warning',
    external,
    plugins: [moduleUrls],
    // CommonJS packages (commander, fastify's) call require() for Node's own modules and for the packages left
    // external; the package root is found from the chunk's own place (dist/<bundle>[/chunks]/, below the root)
    banner: {
      js: [
        "import { createRequire as __bundleRequire } from 'node:module';",
        'const require = __bundleRequire(import.meta.url);',
        `const __bundledModuleUrl = (fromRoot) => new URL(\`\${import.meta.url.includes(${JSON.stringify(chunks)}) ? "../../.." : "../.."}/\${fromRoot}\`, import.meta.url).href;`,
      ].join('\n'),
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await Promise.all(Object.values(PROGRAMS).map((program) => bundle(program)));
