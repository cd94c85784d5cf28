/**
 * A thread as the chat routes answer it: what a client shows (its title, where it was forked from,
 * its times), never the journal's own state (its owner key, the summary the model is given, the
 * router's session).
 */
const publicFields = ['id', 'title', 'titleSource', 'forkedFrom', 'createdAt', 'updatedAt'] as const;

export function threadJson(thread: unknown): unknown {
  if (thread === null || typeof thread !== 'object') return thread;
  const record = thread as Record<string, unknown>;
  return Object.fromEntries(publicFields.filter((field) => field in record).map((field) => [field, record[field]]));
}
