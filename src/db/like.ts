/** A LIKE pattern matching `text` literally (`%`, `_` and `\\` escaped): anywhere, or as a prefix. */
export function likePattern(text: string, prefixOnly = false): string {
  const escaped = text.replace(/[\\%_]/g, (character) => `\\${character}`);
  return prefixOnly ? `${escaped}%` : `%${escaped}%`;
}
