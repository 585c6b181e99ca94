/** "just now", "5 min ago", "3 h ago", "yesterday", then the date: how a history reads at a glance. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const s = Math.round((now - then) / 1000);
  if (s < 45) return 'just now';
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const hours = Math.round(min / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return new Date(then).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The full date and time, for a tooltip. */
export function fullTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}

/** What kind of revision this is, in words. */
export function revisionTypeLabel(type: string): string {
  switch (type) {
    case 'merge':
      return 'Merged a change request';
    case 'update':
      return 'Updated';
    case 'edits':
      return 'Edited';
    default:
      return type ? type[0]!.toUpperCase() + type.slice(1) : 'Changed';
  }
}
