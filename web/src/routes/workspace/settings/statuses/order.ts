/**
 * The workspace's status order after moving `activeId` to where `overId`
 * stands, among the statuses of the same category only: the screen lists
 * statuses by category, so a move keeps the other categories' statuses in
 * their places and reshuffles only the slots the category already holds.
 * Returns every id once (the body of PUT .../statuses/order), or undefined
 * when nothing moves.
 */
export function moveWithinCategory<S extends { id: string; category: string }>(
  statuses: readonly S[],
  activeId: string,
  overId: string,
): string[] | undefined {
  if (activeId === overId) return undefined;
  const active = statuses.find((status) => status.id === activeId);
  const over = statuses.find((status) => status.id === overId);
  if (active === undefined || over === undefined || active.category !== over.category) {
    return undefined;
  }
  const group = statuses.filter((status) => status.category === active.category);
  const from = group.indexOf(active);
  const to = group.indexOf(over);
  const moved = [...group];
  moved.splice(from, 1);
  moved.splice(to, 0, active);
  let next = 0;
  return statuses.map((status) => {
    if (status.category !== active.category) return status.id;
    const placed = moved[next];
    next += 1;
    return placed === undefined ? status.id : placed.id;
  });
}
