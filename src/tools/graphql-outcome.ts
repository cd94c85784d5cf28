import type { ExecutionResult } from 'graphql';
import { PlumbError } from '../core/index.js';
import { toolError } from './define-tool.js';

/**
 * Turns GraphQL errors into tool errors: permission and input problems keep their (safe) data
 * layer message under a dispatcher code; a timeout becomes `timeout`, or `timedOut` when given (a
 * read whose statement the database stopped); anything else is an internal failure that the
 * dispatcher reports and hides.
 */
export function raiseGraphqlErrors(result: ExecutionResult, what: string, timedOut?: () => Error): void {
  const first = result.errors?.[0];
  if (first === undefined) return;
  const code = typeof first.extensions?.code === 'string' ? first.extensions.code : '';
  switch (code) {
    case 'FORBIDDEN':
      throw toolError('forbidden', first.message);
    case 'PERMISSION_ERROR':
      // The data layer's PlumbError, whose cause names the failing permission: the dispatcher reports it.
      throw first.originalError ?? new PlumbError('permission_error', first.message);
    case 'UNAUTHENTICATED':
      throw toolError('authentication_required', first.message);
    case 'TIMEOUT':
      if (timedOut !== undefined) throw timedOut();
      throw toolError('timeout', `${what} did not finish in time and was aborted. Narrow the filters or lower the limit.`);
    case 'BAD_USER_INPUT':
    case 'NOT_FOUND':
    case 'GRAPHQL_VALIDATION_FAILED':
      throw toolError('invalid_arguments', first.message);
    default:
      throw new PlumbError('tool_failed', `${what} failed: ${first.message}`, { cause: first });
  }
}
