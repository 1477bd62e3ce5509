/** How long until an invitation expires, in words a table cell can hold. */
export function timeLeft(expiresAt: string, now = Date.now()): string {
  const ms = new Date(expiresAt).getTime() - now;
  if (ms <= 0) return 'expired';
  const hours = Math.floor(ms / 3_600_000);
  if (hours >= 36) return `in ${Math.round(ms / 86_400_000)} days`;
  if (hours >= 1) return `in ${hours} h`;
  return `in ${Math.max(1, Math.floor(ms / 60_000))} min`;
}
