/** Where Parley reports what the client must not see: refused states, handler bugs, warnings. */
export type Logger = (
  level: 'info' | 'warn' | 'error',
  message: string,
  details?: Record<string, unknown>,
) => void;

/** Writes warnings and errors to stderr (stdout may carry the protocol on stdio). */
export const stderrLogger: Logger = (level, message, details) => {
  if (level === 'info') return;
  const suffix = details ? ` ${JSON.stringify(details)}` : '';
  process.stderr.write(`[parley] ${level}: ${message}${suffix}\n`);
};
