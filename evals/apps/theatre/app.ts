/**
 * Plumb managers over the tables of an existing SQLite database, written by `plumb introspect`: 5
 * tables → 5 managers, 0 many-to-many relations.
 *
 * tables: 'attach' (at the end): the tables are yours. Plumb checks each mapped table and column
 * when it starts and never creates, alters or drops one.
 *
 * Before anything reaches a model:
 * - Descriptions are yours to write. The assistant reads each manager's `description` (and its
 *   fields') to know what the table means: add one to every manager you expose.
 * - Permissions default to: everyone may read every row; signed-in users may create, update and
 *   delete. Tighten them with `permissions: { read, create, update, delete }`.
 * - Every manager has chatExposed: false: nothing reaches a model until you set it to true.
 */
import { defineHost, defineManager } from 'plumb-agent';

export const Actor = defineManager({
  name: 'Actor',
  description: 'An actor of the company.',
  table: 'actors',
  fields: {
    fullName: { type: 'string' },
    bornYear: { type: 'integer', description: 'Year of birth' },
    homeCity: { type: 'string', description: 'City where they live' },
    heightCm: { type: 'integer', description: 'Height in centimetres' },
    joinedOn: { type: 'date', description: 'Date they joined the company' },
    email: { type: 'string' },
  },
  chatExposed: true,
});

export const Stage = defineManager({
  name: 'Stage',
  description: 'A stage of the theatre, with its seats.',
  table: 'stages',
  fields: {
    name: { type: 'string' },
    seats: { type: 'integer', description: 'Number of seats' },
    // SQLite has no exact decimals: numeric values are stored as floating point.
    depthM: { type: 'float', description: 'Depth of the stage in metres' },
    openedYear: { type: 'integer', description: 'Year the stage opened' },
  },
  chatExposed: true,
});

export const Production = defineManager({
  name: 'Production',
  description: 'A play or musical staged by the company, with its run from opening night to closing.',
  table: 'productions',
  fields: {
    title: { type: 'string' },
    playwright: { type: 'string', description: 'Who wrote the play' },
    genre: { type: 'enum', values: ['comedy', 'drama', 'musical', 'tragedy'] },
    opensOn: { type: 'date', description: 'Opening night' },
    closesOn: { type: 'date', nullable: true, description: 'Last night of the run; empty while the run is open-ended' },
    runtimeMin: { type: 'integer', description: 'Running time in minutes' },
    // SQLite has no exact decimals: numeric values are stored as floating point.
    ticketPriceGbp: { type: 'float', description: 'Price of a ticket, in pounds' },
  },
  relations: {
    stage: { kind: 'one', target: 'Stage', column: 'stage_id', description: 'Where it is staged' },
  },
  chatExposed: true,
});

export const Performance = defineManager({
  name: 'Performance',
  // A performance with an afternoon curtain is a matinee.
  conditions: { matinee: { filter: { curtainTime__in: ['14:00', '14:30', '15:00'] }, description: 'An afternoon performance.', words: { 'pt-BR': ['matinê', 'matinês'] } } },
  description: 'One performance of a production on a given day.',
  table: 'performances',
  fields: {
    performedOn: { type: 'date', description: 'Day of the performance' },
    curtainTime: { type: 'string', description: 'Curtain-up time, HH:MM' },
    audienceCount: { type: 'integer', nullable: true, description: 'Tickets sold; empty until it is performed' },
    status: { type: 'enum', values: ['scheduled', 'performed', 'cancelled'], default: 'scheduled' },
  },
  relations: {
    production: { kind: 'one', target: 'Production', column: 'production_id' },
  },
  chatExposed: true,
});

export const Role = defineManager({
  name: 'Role',
  description: 'A part in a production played by an actor, with the actor who understudies it.',
  table: 'roles',
  fields: {
    characterName: { type: 'string', description: 'The character played' },
  },
  relations: {
    production: { kind: 'one', target: 'Production', column: 'production_id' },
    actor: { kind: 'one', target: 'Actor', column: 'actor_id', reverse: 'actorRoles', description: 'Who plays the part' },
    understudy: { kind: 'one', target: 'Actor', column: 'understudy_id', nullable: true, reverse: 'understudyRoles', description: 'Who steps in if the actor cannot play' },
  },
  chatExposed: true,
});

export default defineHost({
  managers: [Actor, Stage, Production, Performance, Role],
  tables: 'attach',
  // The rows of Actor whose email is the asking actor's id are "mine".
  actorRow: { manager: 'Actor', field: 'email' },
});
