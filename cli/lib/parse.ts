import type { Fold } from '../../core/adapters/fold.js';
import { adaptResults, selectAdapter } from '../../core/adapters/selection.js';
import { parseBmfText } from '../../core/bmf.js';
import type { Average } from '../../core/plugins/contracts.js';
import { PluginRegistry } from '../../core/plugins/registry.js';
import { builtinAdapters } from '../../plugins/adapters/index.js';

export interface ParseCommandOptions {
  readonly adapter: string;
  readonly average?: Average | undefined;
  readonly fold?: Fold | undefined;
  readonly plugin?: readonly string[];
}

/** The registry of the client: built-in adapters plus third-party adapter modules named on the command line. */
export async function adapterRegistry(plugins: readonly string[] = []): Promise<PluginRegistry> {
  const registry = new PluginRegistry();
  for (const adapter of builtinAdapters) registry.register(adapter);
  for (const module of plugins) await registry.load(module);
  return registry;
}

/**
 * Parses each output (one iteration each) and returns the pretty BMF text to print. The adapter is resolved
 * before the input is read, so a misspelled adapter fails at once instead of after reading stdin.
 */
export async function runParse(
  read: () => Promise<readonly string[]>,
  options: ParseCommandOptions,
): Promise<string> {
  const registry = await adapterRegistry(options.plugin);
  const selection = selectAdapter(registry, options.adapter);
  const outputs = await read();
  let iterations;
  try {
    iterations = adaptResults(selection, outputs, { average: options.average, fold: options.fold });
  } catch (error) {
    // Only for an explicit `--adapter json`: with magic, JSON may be any harness's, not meant as BMF.
    throw withBmfDiagnosis(
      error,
      selection.kind === 'adapter' && selection.adapters[0]?.id === 'json' ? outputs : [],
    );
  }
  const document = iterations.length === 1 ? iterations[0] : iterations;
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** When the output looks like BMF but is not valid, say what is wrong with it, path by path. */
function withBmfDiagnosis(error: unknown, outputs: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  for (const output of outputs) {
    if (!/^\s*\{/.test(output)) continue;
    const result = parseBmfText(output);
    if (!result.success) {
      error.message += `\nnot valid BMF:\n  ${result.errors.slice(0, 10).join('\n  ')}`;
      break;
    }
  }
  return error;
}
