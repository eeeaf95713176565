/**
 * Whether an error means the database cannot be reached or cannot take the call just now (it is
 * down, restarting, refusing connections, or a SQLite file is locked or unreadable), as opposed to
 * a fault in our code or data. Such a call may succeed if tried again shortly: the error handler
 * answers 503 with Retry-After instead of 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (unavailable(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

// Node's socket errors on the way to PostgreSQL.
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// PostgreSQL SQLSTATEs: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now
// (starting up or in recovery), 53300 too many connections; class 08 is "connection exception".
const pgStates = new Set(['57P01', '57P02', '57P03', '53300']);

// SQLite: the file is locked by someone else past the busy timeout, or cannot be opened or read.
const sqlitePrefixes = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'];

// node-postgres reports a connection that died or never came as plain errors with these messages.
const pgMessages = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
];

function unavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (socketCodes.has(code) || pgStates.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (sqlitePrefixes.some((prefix) => code.startsWith(prefix))) return true;
  }
  return typeof message === 'string' && pgMessages.some((pattern) => pattern.test(message));
}
