import { PlumbError } from '../core/index.js';
import { jsonText } from './records.js';
import type { NewConfirmation } from './types.js';

/** What the two SQL stores share about their tables: the names under a prefix, and a confirmation's columns. */

/** The prefix of every table, `plumb_` unless chosen; `rule` says in words what `pattern` allows. */
export function tablePrefix(chosen: string | undefined, pattern: RegExp, rule: string): string {
  const prefix = chosen ?? 'plumb_';
  if (!pattern.test(prefix)) throw new PlumbError('store_invalid_record', `Table prefix '${prefix}' must be ${rule}.`);
  return prefix;
}

export function journalTables(prefix: string) {
  return {
    threads: `${prefix}threads`,
    turns: `${prefix}turns`,
    items: `${prefix}items`,
    confirmations: `${prefix}confirmations`,
    leases: `${prefix}leases`,
    queue: `${prefix}queue`,
  } as const;
}

/**
 * A new confirmation's values in the order both stores' inserts take them (id, thread, turn,
 * owner, actor, call, tool, arguments, digest, created, expires). Its JSON is checked at once; the
 * values are made when the insert runs, so that `createdAt` defaults to the clock at that moment.
 */
export function confirmationValues(input: NewConfirmation): (clock: () => number) => unknown[] {
  const argumentsText = jsonText(input.arguments, `confirmation '${input.id}'`);
  const actorText = jsonText(input.actor, `confirmation '${input.id}'`);
  return (clock) => [input.id, input.threadId, input.turnId, input.owner, actorText, input.callId, input.tool, argumentsText, input.digest, input.createdAt ?? clock(), input.expiresAt];
}
