// Bundles the compiled client (dist/cli/main.js, which tsc wrote) into dist/cli-bundle/: the `benchtrack` bin
// loads a handful of files instead of about 130 modules (zod alone is 95), which is most of what a spawn costs
// above a bare `node` (bench/cli-startup.bench.ts). Commands stay loaded on demand: each dynamic import becomes a
// chunk of its own. Run by `npm run build` and by the tests' global setup, after tsc.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const CLI_BUNDLE = join(dist, 'cli-bundle');

/**
 * `import.meta.url` in a bundled file names the bundle, not the module it came from: each compiled module that
 * reads it (package.json lookups, the check for running from source) gets the URL of its own file in dist/.
 * Every chunk sits in CLI_BUNDLE/chunks or CLI_BUNDLE, so the URL is rebuilt from the chunk's own location.
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

export async function bundleCli() {
  await build({
    entryPoints: { main: join(dist, 'cli', 'main.js') },
    outdir: CLI_BUNDLE,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [moduleUrls],
    // CommonJS packages (commander) call require() for Node's own modules; the package root is found from the
    // chunk's own place (dist/cli-bundle[/chunks]/, below the package root)
    banner: {
      js: [
        "import { createRequire as __bundleRequire } from 'node:module';",
        'const require = __bundleRequire(import.meta.url);',
        'const __bundledModuleUrl = (fromRoot) => new URL(`${import.meta.url.includes("/cli-bundle/chunks/") ? "../../.." : "../.."}/${fromRoot}`, import.meta.url).href;',
      ].join('\n'),
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
