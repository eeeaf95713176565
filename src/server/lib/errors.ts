import { messages } from '#shared/messages.ts';

/**
 * The one application error. Services throw it; the error handler (plugins/errors.ts) turns it into
 * the one error body. `fields` maps a form field to the message shown under it.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export const notFound = (message: string = messages.notFound) =>
  new AppError(404, 'NOT_FOUND', message);
