import { errorStatus, type ErrorCode } from '#shared/errors.ts';
import { messages } from '#shared/wording.ts';

/**
 * The one application error. Services throw it; the error handler (plugins/errors.ts) turns it into
 * the one error body. The code is one of `shared/errors.ts` and brings its HTTP status; `fields`
 * maps a form field to the message shown under it.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  /** With CARD_AUTHENTICATION only: what the browser confirms with the card processor's script. */
  readonly action: { client_secret: string } | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    fields?: Record<string, string>,
    action?: { client_secret: string },
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.fields = fields;
    this.action = action;
  }
}

export const notFound = (message: string = messages.notFound) => new AppError('NOT_FOUND', message);
