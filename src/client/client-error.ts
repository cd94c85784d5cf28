/** A failed client call: the server's code (or the client's own), its message, and the HTTP status when there was one. */
export class PlumbClientError extends Error {
  override readonly name = 'PlumbClientError';
  readonly code: string;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: string, message: string, options: { readonly status?: number; readonly retryAfterSeconds?: number; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isPlumbClientError(error: unknown): error is PlumbClientError {
  return error instanceof PlumbClientError;
}
