/** Commander parser of repeatable options: `--plugin a --plugin b` gives `['a', 'b']`. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
