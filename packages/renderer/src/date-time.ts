// A date-time field asks for RFC 3339 text with an offset; people think in their own wall clock. The
// form shows an <input type="datetime-local"> and converts between the two with the browser's zone.

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** The local wall-clock form `YYYY-MM-DDTHH:MM:SS` that a datetime-local input shows. */
export function toLocalInput(date: Date): string {
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The offset of a local date from UTC, as `+HH:MM` or `-HH:MM`. */
export function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const size = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(size / 60))}:${pad(size % 60)}`;
}

/**
 * How the form names the person's time zone: its IANA name (`Europe/Paris`), which stays right
 * across summer time, or `UTC+02:00` when the browser does not say.
 */
export function timeZoneLabel(date: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? zone : `UTC${offsetOf(date)}`;
}

/**
 * Turns a datetime-local value into RFC 3339 text with the local offset, e.g. `2026-07-28T14:30`
 * in Paris in summer becomes `2026-07-28T14:30:00+02:00`. Returns `undefined` for anything else.
 */
export function localInputToDateTime(value: string): string | undefined {
  const match = LOCAL_INPUT.exec(value);
  if (!match) return undefined;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, month - 1, day);
  date.setHours(hours, minutes, seconds, 0);
  if (Number.isNaN(date.getTime())) return undefined;
  return `${toLocalInput(date)}${offsetOf(date)}`;
}

/** Shows an RFC 3339 date-time (a field's default) on the person's wall clock; `''` if unreadable. */
export function dateTimeToLocalInput(text: string): string {
  const time = Date.parse(text);
  return Number.isNaN(time) ? '' : toLocalInput(new Date(time));
}
