import { isPlumbError } from '../core/index.js';

/** `error.type`: a Plumb error's stable code, else the error's class name (never its message, which may quote content). */
export function errorType(error: unknown): string {
  if (isPlumbError(error)) return error.code;
  if (error instanceof Error) return error.name === 'AbortError' ? 'aborted' : error.name || 'Error';
  return '_OTHER';
}
