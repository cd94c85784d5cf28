/**
 * The asking person's row: how a host maps a signed-in actor to the rows that are theirs
 * (`actorRow` on `defineHost`), as the router context's `actorRow` the reader narrows first-person
 * turns with. An anonymous actor, a mapping that gives nothing, or an id no row of the mapped field
 * holds, has no row: "my bookings" is then unread, never everyone's nor "none".
 */
import type { Actor, JsonObject } from '../core/index.js';
import { isAuthenticated, PlumbError } from '../core/index.js';
import type { ActorRowFilter } from '../router/index.js';
import type { ChatApp } from '../tools/index.js';

/** `{ manager, field }`: the rows of `manager` whose `field` is the actor's id; or a function of the actor. */
export type ActorRow = { readonly manager: string; readonly field: string } | ((actor: Actor) => ActorRowFilter | undefined);

/**
 * The context keys for this actor: `{ actorRow: { manager, filter } }`, or none. `held`: the values the
 * `{ manager, field }` mapping's field holds, where they could all be read (null: not known, and the
 * mapping is trusted).
 */
export function actorContext(row: ActorRow | undefined, actor: Actor, held: ReadonlySet<string> | null = null): { actorRow?: JsonObject } {
  if (row === undefined || !isAuthenticated(actor)) return {};
  if (typeof row !== 'function' && held !== null && !held.has(actor.id)) return {};
  const found = typeof row === 'function' ? row(actor) : { manager: row.manager, filter: { [row.field]: actor.id } };
  if (found === undefined || Object.keys(found.filter).length === 0) return {};
  return { actorRow: { manager: found.manager, filter: { ...found.filter } } };
}

/** Checks a `{ manager, field }` mapping against the app: `invalid_host` naming what there is. */
export function checkActorRow(row: ActorRow | undefined, app: ChatApp): void {
  if (row === undefined || typeof row === 'function') return;
  const manager = app.managers.find((m) => m.name === row.manager && m.chatExposed);
  if (manager === undefined) {
    throw new PlumbError('invalid_host', `actorRow names manager '${row.manager}', which the app does not expose to chat. Managers: ${app.managers.filter((m) => m.chatExposed).map((m) => m.name).join(', ')}.`, { details: { manager: row.manager } });
  }
  if (!manager.fields.some((f) => f.name === row.field)) {
    throw new PlumbError('invalid_host', `actorRow names field '${row.field}', which ${row.manager} does not have. Fields: ${manager.fields.map((f) => f.name).join(', ')}.`, { details: { manager: row.manager, field: row.field } });
  }
}
