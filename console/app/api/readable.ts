/**
 * The API names the field of a validation error by its place in the request (`body.i_agree: must be true: accept
 * the terms to sign up`), which suits scripts; people get sentences (`Accept the terms to sign up.`).
 */
const PLACE = /^(?:body|query|querystring|params|headers|request)(?:\.([\w.[\]-]+))?: (.*)$/s;

function label(path: string): string {
  const name = path
    .split('.')
    .filter((part) => !/^\[?\d+\]?$/.test(part))
    .at(-1)!
    .replace(/\[\d+\]$/, '')
    .replace(/_/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function phrase(rest: string): string {
  if (/received undefined$/.test(rest)) return 'is missing';
  const small = /^Too small: expected string to have >=(\d+) characters?$/.exec(rest);
  if (small) return `needs at least ${small[1]} character${small[1] === '1' ? '' : 's'}`;
  const big = /^Too big: expected string to have <=(\d+) characters?$/.exec(rest);
  if (big) return `takes at most ${big[1]} characters`;
  return /^(must|is|are|needs|takes|cannot|may) /.test(rest) ? rest : `is not valid (${rest})`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function readablePart(part: string): string {
  const placed = PLACE.exec(part);
  if (!placed) return sentence(part);
  const [, path, rest = ''] = placed;
  // "must be true: accept the terms" carries its own instruction.
  const instruction = /^must be true: (.+)$/s.exec(rest);
  if (instruction) return sentence(instruction[1]!);
  return path ? sentence(`${label(path)} ${phrase(rest)}`) : sentence(rest);
}

export function readableValidation(message: string): string {
  return message.split('; ').map(readablePart).join(' ');
}
