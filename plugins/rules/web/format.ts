/** `2026-07-01` → `Jul 1, 2026` (a calendar date, shown in UTC so it never shifts a day). */
export function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}
