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
 * - staff_skills: a list of skill values per row of staff (its primary key (staff_id, skill) has 2
 *   columns: staff_id → staff), and Plumb has no many-valued field; to read it, give the table a
 *   single-column key (id INTEGER PRIMARY KEY, keeping (staff_id, skill) unique) and introspect
 *   again: it becomes a manager with a relation to staff.
 */
import { defineHost, defineManager } from 'plumb-agent';

export const Ward = defineManager({
  name: 'Ward',
  description: 'A hospital ward with its beds.',
  table: 'wards',
  fields: {
    name: { type: 'string' },
    floor: { type: 'integer', description: 'Floor of the building' },
    beds: { type: 'integer', description: 'Number of beds' },
    specialty: { type: 'enum', values: ['cardiology', 'paediatrics', 'surgery', 'oncology', 'maternity'] },
  },
  chatExposed: true,
});

export const Staff = defineManager({
  name: 'Staff',
  description: 'A member of staff on the rota.',
  table: 'staff',
  fields: {
    fullName: { type: 'string' },
    role: { type: 'enum', values: ['nurse', 'doctor', 'porter', 'pharmacist'], description: 'Job of the staff member' },
    hiredOn: { type: 'date', description: 'Date of hire' },
    // SQLite has no exact decimals: numeric values are stored as floating point.
    hourlyRate: { type: 'float', description: 'Pay per hour, in pounds' },
    homeTown: { type: 'string', description: 'Town where they live' },
    email: { type: 'string' },
  },
  relations: {
    ward: { kind: 'one', target: 'Ward', column: 'ward_id', nullable: true, description: 'The ward they are assigned to' },
  },
  chatExposed: true,
});

export const LeaveRequest = defineManager({
  name: 'LeaveRequest',
  description: 'A request by a staff member for time off.',
  table: 'leave_requests',
  fields: {
    startsOn: { type: 'date', description: 'First day of leave' },
    endsOn: { type: 'date', description: 'Last day of leave' },
    reason: { type: 'string', description: 'Why the leave is asked for' },
    approvedOn: { type: 'date', nullable: true, description: 'Date the request was approved' },
  },
  relations: {
    staff: { kind: 'one', target: 'Staff', column: 'staff_id', description: 'Who asked for the leave' },
  },
  chatExposed: true,
});

export const Shift = defineManager({
  name: 'Shift',
  description: 'A rostered shift of one staff member on a ward.',
  table: 'shifts',
  fields: {
    shiftDate: { type: 'date', description: 'Day of the shift' },
    kind: { type: 'enum', values: ['early', 'late', 'night'], description: 'Early, late or night shift' },
    hours: { type: 'integer', description: 'Length of the shift in hours' },
    status: { type: 'enum', values: ['planned', 'worked', 'cancelled'], default: 'planned' },
  },
  relations: {
    staff: { kind: 'one', target: 'Staff', column: 'staff_id', description: 'Who works the shift' },
    ward: { kind: 'one', target: 'Ward', column: 'ward_id' },
  },
  chatExposed: true,
});

export default defineHost({
  managers: [Ward, Staff, LeaveRequest, Shift],
  tables: 'attach',
  // The rows of Staff whose email is the asking actor's id are "mine".
  actorRow: { manager: 'Staff', field: 'email' },
});
