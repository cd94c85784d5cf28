import { anonymous, hasRole, userActor } from '../core/index.js';
import type { Actor } from '../core/index.js';

/**
 * The demo's people: Alice runs the shop (admin, may change anything), Bob is in sales (reads
 * everything, changes nothing), and an anonymous visitor sees only the catalogue.
 */
export const demoActors = {
  alice: userActor('alice', ['admin'], 'Alice (admin)'),
  bob: userActor('bob', ['sales'], 'Bob (sales, read-only)'),
  anonymous,
} as const;

export type DemoActorName = keyof typeof demoActors;

export const demoActorNames = Object.keys(demoActors) as readonly DemoActorName[];

export function demoActor(name: string): Actor | undefined {
  return Object.hasOwn(demoActors, name) ? demoActors[name as DemoActorName] : undefined;
}

export const isAdmin = (actor: Actor): boolean => hasRole(actor, 'admin');
export const isStaff = (actor: Actor): boolean => hasRole(actor, 'admin') || hasRole(actor, 'sales');
