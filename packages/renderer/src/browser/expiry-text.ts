/**
 * The line that says until when the page's link works, on the person's clock: the time alone when
 * it ends today, with the date otherwise. `timeZone` is for tests; the browser's own by default.
 */
export function expiryText(expiresAt: number, now: number, locale?: string, timeZone?: string): string {
  const zone = timeZone === undefined ? {} : { timeZone };
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...zone });
  const sameDay = day.format(expiresAt) === day.format(now);
  const when = new Intl.DateTimeFormat(locale, {
    ...(sameDay ? {} : { dateStyle: 'medium' }),
    timeStyle: 'short',
    ...zone,
  }).format(expiresAt);
  return `This link works until ${when}.`;
}
