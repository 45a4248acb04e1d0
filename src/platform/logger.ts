export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `json`: one JSON object a line, for machines; `text`: one readable line, for a person at a terminal. */
export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * The format `svc serve` logs in: LOG_FORMAT when set; else `text` when both stdout and stderr (where the lines
 * go) are terminals, a person watching, and `json` otherwise: piped, redirected, under systemd or Docker.
 */
export function logFormatOf(config: { LOG_FORMAT?: LogFormat }, isTerminal = Boolean(process.stdout.isTTY && process.stderr.isTTY)): LogFormat {
  return config.LOG_FORMAT ?? (isTerminal ? 'text' : 'json');
}

/** `key=value` for the text format: strings bare unless they hold spaces, quotes or `=`; everything else as JSON. */
function textValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function textLine(time: string, level: LogLevel, message: string, fields: LogFields | undefined): string {
  const pairs = Object.entries(fields ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${textValue(value)}`);
  return [time, level.toUpperCase().padEnd(5), message, ...pairs].join(' ');
}

/**
 * An email address anywhere in a line, as a last guard: svc logs ids, never a customer's address, but some text
 * it logs comes from outside (an SMTP server's or a webhook receiver's answer may name one).
 */
const EMAIL_ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** One line per message on stderr (JSON unless `format` says text), at or above `level`; email addresses in it are `[redacted]`. */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n'), format: LogFormat = 'json'): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const log = (at: LogLevel) => (message: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(at) < threshold) return;
    const time = new Date().toISOString();
    const line = format === 'text' ? textLine(time, at, message, fields) : JSON.stringify({ time, level: at, msg: message, ...fields });
    write(line.replace(EMAIL_ADDRESS, '[redacted]'));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = createLogger('silent');
