import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entries = ['./index.ts', './testing.ts'].map((entry) => fileURLToPath(new URL(entry, import.meta.url)));

// One program for both entry points: building it (parsing core and the libraries' types) is the whole cost.
const program = ts.createProgram(entries, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
});

/** Every name an entry point exports, one per line: `value <name>` or `type <name>`, sorted. */
function apiOf(entry: string): string {
  const file = fileURLToPath(new URL(entry, import.meta.url));
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
  if (module === undefined) throw new Error(`${entry} is not a module`);
  return checker
    .getExportsOfModule(module)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return `${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'} ${symbol.name}`;
    })
    .sort()
    .join('\n')
    .concat('\n');
}

// The public API is what plugin authors build on: adding or removing a name must be deliberate. After a
// deliberate change, update the report with `npx vitest run kit/api.test.ts -u` and commit it.
describe('the plugin kit public API', () => {
  it('benchtrack/plugin-kit exports exactly the names in kit/api.txt', async () => {
    await expect(apiOf('./index.ts')).toMatchFileSnapshot('./api.txt');
  });

  it('benchtrack/plugin-kit/testing exports exactly the names in kit/testing-api.txt', async () => {
    await expect(apiOf('./testing.ts')).toMatchFileSnapshot('./testing-api.txt');
  });
});
