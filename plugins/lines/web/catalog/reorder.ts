/** The ids in their new order after moving the one at `from` to `to` (drag and drop, up/down). */
export function moveId(ids: readonly number[], from: number, to: number): number[] {
  const next = [...ids];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}
