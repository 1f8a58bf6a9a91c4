const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The release date as the spec shows it: the weekday ("Tuesday") when the release is under 7 days
 * old, otherwise the date (YYYY-MM-DD, the spec's date format). In the viewer's time zone.
 */
export function releaseDateLabel(timestamp: string, now: Date = new Date()): string {
  const released = new Date(timestamp);
  if (Number.isNaN(released.getTime())) return '';
  const age = now.getTime() - released.getTime();
  if (age >= 0 && age < 7 * DAY_MS) return released.toLocaleDateString('en-US', { weekday: 'long' });
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${released.getFullYear()}-${pad(released.getMonth() + 1)}-${pad(released.getDate())}`;
}
