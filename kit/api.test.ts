import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entries = ['./index.ts', './testing.ts'].map((entry) => fileURLToPath(new URL(entry, import.meta.url)));

// One program for both entry points, of Benchtrack's own files only: what a name is (a value or a type) is known
// from its declaration, so the libraries' and Node's declarations are left out (each package's files read as
// empty, and no default lib). Parsing them was most of the cost: 6.5 s of CPU for the program, 1.8 s without.
const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  noEmit: true,
  noLib: true,
  types: [],
};
const host = ts.createCompilerHost(options);
const readSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (file, language, ...rest) =>
  file.includes('/node_modules/')
    ? ts.createSourceFile(file, '', language)
    : readSourceFile(file, language, ...rest);
const program = ts.createProgram(entries, options, host);

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
      // a name passed on from a package would have no declaration here: say so rather than call it a type
      if (!target.declarations?.length)
        throw new Error(
          `${entry} passes on ${symbol.name} from a package, whose declarations this check leaves out: read that package's files in the program`,
        );
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
