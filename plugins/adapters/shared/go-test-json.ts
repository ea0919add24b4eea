/**
 * The text `go test` printed, recovered from `go test -json` (test2json) events: the `Output` of every
 * `output` event, concatenated per package in order (one result line may be split across events, and
 * packages tested in parallel interleave). `null` when the input holds no such event.
 */
export function goTestJsonText(output: string): string | null {
  if (output.trimStart()[0] !== '{' || !output.includes('"Action"')) return null;
  const packages = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    const event = parseEvent(line);
    if (event === null) continue;
    const chunks = packages.get(event.pkg);
    if (chunks) chunks.push(event.text);
    else packages.set(event.pkg, [event.text]);
  }
  if (packages.size === 0) return null;
  return [...packages.values()].map((chunks) => chunks.join('')).join('\n');
}

function parseEvent(line: string): { pkg: string; text: string } | null {
  if (!line.trimStart().startsWith('{"')) return null;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof event !== 'object' || event === null) return null;
  const { Action, Output, Package } = event as Record<string, unknown>;
  if (Action !== 'output' || typeof Output !== 'string') return null;
  return { pkg: typeof Package === 'string' ? Package : '', text: Output };
}
