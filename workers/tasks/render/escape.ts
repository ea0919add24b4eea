const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Code points XML 1.0 forbids even as character references (C0 controls other than tab, newline and carriage
 * return; U+FFFE and U+FFFF; unpaired surrogates). librsvg refuses a whole document that holds one, so a
 * benchmark name with a stray control character would otherwise cost the image.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as it is drawn: characters XML cannot carry become U+FFFD, and runs of white space (tabs, newlines)
 * one space, as SVG would collapse them anyway; measuring and truncation work on this form.
 */
export function cleanText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/\s+/g, ' ').trim();
}

/** Escapes text for SVG character data and attribute values (both quote styles). Apply to {@link cleanText}'s output. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
