export { PlumbError, isPlumbError } from './plumb-error.js';
export type { PlumbErrorJSON, PlumbErrorOptions, ErrorCatalogue } from './plumb-error.js';
export { anonymous, userActor, isAuthenticated, hasRole, actorKey } from './actor.js';
export type { Actor, UserActor, AnonymousActor } from './actor.js';
export { canonicalJson, canonicalHash, canonicalHmac } from './canonical-json.js';
export { setBounded } from './bounded-map.js';
export type { JsonValue, JsonPrimitive, JsonObject } from './json.js';
