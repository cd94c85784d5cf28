/**
 * The one error class of Plumb. `code` is a stable lower_snake_case identifier declared once in
 * the owning folder's `errors.ts`; `message` says what happened and what to change.
 * `toJSON` owns the wire shape: `{ code, message, details? }` — never the cause or the stack.
 */
export interface PlumbErrorOptions {
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

export interface PlumbErrorJSON {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export class PlumbError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: string, message: string, options: PlumbErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlumbError';
    this.code = code;
    this.details = options.details;
  }

  toJSON(): PlumbErrorJSON {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isPlumbError(value: unknown): value is PlumbError {
  return value instanceof PlumbError;
}

/** A catalogue of error codes: code → one-line meaning. Each folder declares one in `errors.ts`. */
export type ErrorCatalogue = Readonly<Record<string, string>>;
