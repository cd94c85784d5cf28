/**
 * Plumb managers over the tables of an existing SQLite database, written by `plumb introspect`: 5
 * tables → 4 managers, 0 many-to-many relations; 1 table skipped.
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
 *
 * Skipped tables:
 * - observer_skills: a list of skill values per row of observers (its primary key (observer_id,
 *   skill) has 2 columns: observer_id → observers), and Plumb has no many-valued field; to read it,
 *   give the table a single-column key (id INTEGER PRIMARY KEY, keeping (observer_id, skill)
 *   unique) and introspect again: it becomes a manager with a relation to observers.
 */
import { defineHost, defineManager } from 'plumb-agent';

export const Observer = defineManager({
  name: 'Observer',
  description: 'A person who books telescope time.',
  table: 'observers',
  fields: {
    fullName: { type: 'string' },
    email: { type: 'string' },
    institution: { type: 'string', description: 'University or club of the observer' },
    country: { type: 'string', description: 'Home country' },
    role: { type: 'enum', values: ['student', 'staff', 'visitor'], description: 'Student, staff or visitor' },
  },
  chatExposed: true,
});

export const Target = defineManager({
  name: 'Target',
  description: 'A sky object observed.',
  table: 'targets',
  fields: {
    name: { type: 'string' },
    kind: { type: 'enum', values: ['galaxy', 'nebula', 'star cluster', 'planet', 'double star'], description: 'Type of object' },
    constellation: { type: 'string', description: 'Constellation it lies in' },
    magnitude: { type: 'float', description: 'Apparent magnitude (lower is brighter)' },
    distanceLy: { type: 'float', nullable: true, description: 'Distance in light years' },
  },
  chatExposed: true,
});

export const Telescope = defineManager({
  name: 'Telescope',
  description: 'A telescope of the observatory.',
  table: 'telescopes',
  fields: {
    name: { type: 'string' },
    apertureMm: { type: 'integer', description: 'Aperture in millimetres' },
    focalLengthMm: { type: 'integer', description: 'Focal length in millimetres' },
    mount: { type: 'enum', values: ['equatorial', 'altazimuth', 'dobsonian'], description: 'Mount type' },
    site: { type: 'string', description: 'Where the telescope stands' },
    commissionedOn: { type: 'date', description: 'Date it entered service' },
  },
  chatExposed: true,
});

export const Session = defineManager({
  name: 'Session',
  description: 'One observing session: an observer on a telescope looking at a target.',
  table: 'sessions',
  fields: {
    observedOn: { type: 'date', description: 'Night of the session' },
    durationMin: { type: 'integer', description: 'Length in minutes' },
    seeingArcsec: { type: 'float', nullable: true, description: 'Seeing in arcseconds (lower is steadier)' },
    cloudCoverPct: { type: 'integer', default: 0, description: 'Cloud cover in percent' },
    notes: { type: 'string', nullable: true, description: 'Observer notes' },
  },
  relations: {
    telescope: { kind: 'one', target: 'Telescope', column: 'telescope_id', description: 'Telescope used' },
    observer: { kind: 'one', target: 'Observer', column: 'observer_id', description: 'Who observed' },
    target: { kind: 'one', target: 'Target', column: 'target_id', description: 'What was observed' },
  },
  chatExposed: true,
});

export default defineHost({
  managers: [Observer, Target, Telescope, Session],
  tables: 'attach',
  // The rows of Observer whose email is the asking actor's id are \"mine\".
  actorRow: { manager: 'Observer', field: 'email' },
});
