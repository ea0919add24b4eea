/**
 * Paths of fields present in `raw` (the JSON as received) but absent from `parsed` (what the zod schema kept).
 * zod strips unknown keys at every depth, so comparing the two finds them without a strict copy of every
 * schema; records keep all their keys and so report nothing.
 */
export function unknownFields(raw: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    return raw.flatMap((item, index) => unknownFields(item, parsed[index], `${path}[${index}]`));
  }
  if (!isObject(raw) || !isObject(parsed)) return [];
  return Object.keys(raw).flatMap((key) => {
    const child = path === '' ? key : `${path}.${key}`;
    return Object.hasOwn(parsed, key) ? unknownFields(raw[key], parsed[key], child) : [child];
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
