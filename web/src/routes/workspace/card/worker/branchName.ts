/** The longest branch name proposed for a card (git allows far more; a person reads this one). */
export const BRANCH_MAX = 50;

/** Words as lowercase ASCII letters and digits joined by single dashes ("Crème brûlée!" → "creme-brulee"). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The branch a worker opened from a card works on: the card's key and its
 * title, `abc-123-short-title`, at most BRANCH_MAX characters, cut between
 * words when a whole word does not fit, never ending in a dash.
 */
export function branchName(key: string, title: string): string {
  const prefix = slugify(key);
  const words = slugify(title);
  if (words === '') return prefix.slice(0, BRANCH_MAX).replace(/-+$/, '');
  if (prefix === '') return words.slice(0, BRANCH_MAX).replace(/-+$/, '');
  const room = BRANCH_MAX - prefix.length - 1;
  if (room <= 0) return prefix.slice(0, BRANCH_MAX).replace(/-+$/, '');
  if (words.length <= room) return `${prefix}-${words}`;
  const cut = words.slice(0, room + 1);
  const lastDash = cut.lastIndexOf('-');
  // A single word longer than the room is cut inside it rather than dropped.
  const fitted = lastDash > 0 ? cut.slice(0, lastDash) : words.slice(0, room);
  return `${prefix}-${fitted.replace(/-+$/, '')}`;
}
