/**
 * Plumb managers over the tables of an existing SQLite database, written by `plumb introspect`: 6
 * tables → 5 managers, 1 many-to-many relation.
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

export const Sponsor = defineManager({
  name: 'Sponsor',
  description: 'A company that sponsors one or more teams.',
  table: 'sponsors',
  fields: {
    name: { type: 'string' },
    industry: { type: 'string', description: 'Line of business of the sponsor' },
  },
  chatExposed: true,
});

export const Venue = defineManager({
  name: 'Venue',
  description: 'A stadium or ground where matches are played.',
  table: 'venues',
  fields: {
    name: { type: 'string' },
    city: { type: 'string' },
    capacity: { type: 'integer', description: 'Seats in the ground' },
    surface: { type: 'enum', values: ['grass', 'artificial'], description: 'The pitch surface' },
  },
  chatExposed: true,
});

export const Team = defineManager({
  name: 'Team',
  description: 'A club in the league.',
  table: 'teams',
  fields: {
    name: { type: 'string' },
    city: { type: 'string' },
    foundedYear: { type: 'integer', description: 'Year the club was founded' },
    coachName: { type: 'string', description: 'The head coach' },
    coachEmail: { type: 'string' },
  },
  relations: {
    venue: { kind: 'one', target: 'Venue', column: 'venue_id', nullable: true, description: 'The home ground' },
    sponsors: { kind: 'manyToMany', target: 'Sponsor', through: 'team_sponsors', sourceColumn: 'team_id', targetColumn: 'sponsor_id', description: 'Companies sponsoring the team' },
  },
  chatExposed: true,
});

export const Match = defineManager({
  name: 'Match',
  description: 'A league fixture between a home and an away team.',
  table: 'matches',
  fields: {
    playedOn: { type: 'date', description: 'Match day' },
    homeGoals: { type: 'integer', nullable: true, description: 'Goals scored by the home team' },
    awayGoals: { type: 'integer', nullable: true, description: 'Goals scored by the away team' },
    attendance: { type: 'integer', nullable: true, description: 'Spectators at the match' },
    status: { type: 'enum', values: ['scheduled', 'played', 'postponed'], default: 'scheduled' },
  },
  relations: {
    homeTeam: { kind: 'one', target: 'Team', column: 'home_team_id', reverse: 'homeTeamMatches', description: 'The team playing at home' },
    awayTeam: { kind: 'one', target: 'Team', column: 'away_team_id', reverse: 'awayTeamMatches', description: 'The visiting team' },
    venue: { kind: 'one', target: 'Venue', column: 'venue_id' },
  },
  chatExposed: true,
});

export const Player = defineManager({
  name: 'Player',
  description: 'A registered player; a player without a team is a free agent.',
  table: 'players',
  fields: {
    fullName: { type: 'string' },
    position: { type: 'enum', values: ['goalkeeper', 'defender', 'midfielder', 'forward'] },
    shirtNumber: { type: 'integer', description: 'Squad number' },
    birthDate: { type: 'date', description: 'Date of birth' },
    heightCm: { type: 'integer', nullable: true, description: 'Height in centimetres' },
    nationality: { type: 'string', description: 'Country the player represents' },
    email: { type: 'string' },
  },
  relations: {
    team: { kind: 'one', target: 'Team', column: 'team_id', nullable: true },
  },
  chatExposed: true,
});

export default defineHost({
  managers: [Sponsor, Venue, Team, Match, Player],
  tables: 'attach',
  // The rows of Player whose email is the asking actor's id are \"mine\".
  actorRow: { manager: 'Player', field: 'email' },
});
