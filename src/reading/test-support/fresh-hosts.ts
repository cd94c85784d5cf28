/**
 * Three host apps in domains the reader was not written for — a school, a hostel and a fleet — built
 * from names, types, relations and a few field descriptions only (no vocabulary of their own), for
 * testing the relation-verb, value-as-noun and attribute families over schemas that are not the demo.
 */
import { defineHost } from '../../config/index.js';
import type { HostDefinition } from '../../config/index.js';
import { defineManager } from '../../data/index.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };

/** Teachers, courses, rooms, classes, students and their enrollments. */
export function schoolHost(): HostDefinition {
  const Teacher = defineManager({
    name: 'Teacher',
    fields: { fullName: { type: 'string' }, email: { type: 'string' }, country: { type: 'string', description: 'The country the teacher comes from.' } },
    chatExposed: true,
    permissions: open,
  });
  const Course = defineManager({
    name: 'Course',
    fields: { title: { type: 'string' }, kind: { type: 'enum', values: ['core', 'elective'] } },
    relations: { teacher: { kind: 'one', target: 'Teacher', reverse: 'courses' } },
    chatExposed: true,
    permissions: open,
  });
  const Room = defineManager({
    name: 'Room',
    fields: { name: { type: 'string' }, seats: { type: 'integer', description: 'How many people the room seats.' } },
    chatExposed: true,
    permissions: open,
  });
  const Class = defineManager({
    name: 'Class',
    description: 'One meeting of a course in a room.',
    fields: { startsAt: { type: 'datetime' } },
    relations: { course: { kind: 'one', target: 'Course', reverse: 'classes' }, room: { kind: 'one', target: 'Room', reverse: 'classes' } },
    chatExposed: true,
    permissions: open,
  });
  const Student = defineManager({
    name: 'Student',
    fields: { fullName: { type: 'string' }, city: { type: 'string' }, country: { type: 'string' } },
    chatExposed: true,
    permissions: open,
  });
  const Enrollment = defineManager({
    name: 'Enrollment',
    fields: { enrolledOn: { type: 'date' } },
    relations: { student: { kind: 'one', target: 'Student', reverse: 'enrollments' }, course: { kind: 'one', target: 'Course', reverse: 'enrollments' } },
    chatExposed: true,
    permissions: open,
  });
  return defineHost({
    managers: [Teacher, Course, Room, Class, Student, Enrollment],
    seed: [
      {
        manager: 'Teacher',
        rows: [
          { id: 1, fullName: 'Amara Okafor', email: 'amara@school.example', country: 'Kenya' },
          { id: 2, fullName: 'Daniel Lee', email: 'daniel@school.example', country: 'Portugal' },
          { id: 3, fullName: 'Lúcia Souza', email: 'lucia@school.example', country: 'Brazil' },
        ],
      },
      {
        manager: 'Course',
        rows: [
          { id: 1, title: 'Algebra II', kind: 'core', teacher: 1 },
          { id: 2, title: 'Creative Writing', kind: 'elective', teacher: 3 },
          { id: 3, title: 'Robotics', kind: 'elective', teacher: 2 },
          { id: 4, title: 'World History', kind: 'core', teacher: 1 },
        ],
      },
      { manager: 'Room', rows: [{ id: 1, name: 'B', seats: 30 }, { id: 2, name: 'Lab', seats: 16 }] },
      {
        manager: 'Class',
        rows: [
          { id: 1, course: 1, room: 1, startsAt: '2026-12-05T09:00:00Z' },
          { id: 2, course: 3, room: 2, startsAt: '2026-12-03T14:00:00Z' },
        ],
      },
      {
        manager: 'Student',
        rows: [
          { id: 1, fullName: 'Ana Ribeiro', city: 'Porto', country: 'Portugal' },
          { id: 2, fullName: 'Jomo Kamau', city: 'Nairobi', country: 'Kenya' },
          { id: 3, fullName: 'Claire Martin', city: 'Lyon', country: 'France' },
        ],
      },
      {
        manager: 'Enrollment',
        rows: [
          { id: 1, student: 1, course: 1, enrolledOn: '2026-09-01' },
          { id: 2, student: 2, course: 1, enrolledOn: '2026-09-02' },
          { id: 3, student: 3, course: 2, enrolledOn: '2026-09-03' },
        ],
      },
    ],
  });
}

/** Guests, rooms and the rentals between them. */
export function hostelHost(): HostDefinition {
  const Guest = defineManager({
    name: 'Guest',
    fields: { fullName: { type: 'string' }, email: { type: 'string' }, city: { type: 'string' }, country: { type: 'string' } },
    chatExposed: true,
    permissions: open,
  });
  const Room = defineManager({
    name: 'Room',
    fields: { name: { type: 'string' }, kind: { type: 'enum', values: ['dorm', 'private', 'suite'] }, beds: { type: 'integer' } },
    chatExposed: true,
    permissions: open,
  });
  const Rental = defineManager({
    name: 'Rental',
    fields: { startedOn: { type: 'date' }, endedOn: { type: 'date', nullable: true, description: 'Empty while the guest is still in the room.' }, nightlyPrice: { type: 'decimal' } },
    relations: { guest: { kind: 'one', target: 'Guest', reverse: 'rentals' }, room: { kind: 'one', target: 'Room', reverse: 'rentals' } },
    chatExposed: true,
    permissions: open,
  });
  return defineHost({
    managers: [Guest, Room, Rental],
    seed: [
      {
        manager: 'Guest',
        rows: [
          { id: 1, fullName: 'Marie Dubois', email: 'marie@mail.example', city: 'Lyon', country: 'France' },
          { id: 2, fullName: 'Pedro Alves', email: 'pedro@mail.example', city: 'São Paulo', country: 'Brazil' },
          { id: 3, fullName: 'Wanjiru Njeri', email: 'wanjiru@mail.example', city: 'Nairobi', country: 'Kenya' },
          { id: 4, fullName: 'Hans Becker', email: 'hans@mail.example', city: 'Berlin', country: 'Germany' },
        ],
      },
      {
        manager: 'Room',
        rows: [
          { id: 12, name: 'Garden', kind: 'suite', beds: 2 },
          { id: 14, name: 'Blue', kind: 'dorm', beds: 8 },
          { id: 21, name: 'Attic', kind: 'private', beds: 1 },
        ],
      },
      {
        manager: 'Rental',
        rows: [
          { id: 1, guest: 1, room: 12, startedOn: '2026-11-20', endedOn: '2026-11-24', nightlyPrice: '120.00' },
          { id: 2, guest: 2, room: 14, startedOn: '2026-11-28', endedOn: null, nightlyPrice: '25.00' },
          { id: 3, guest: 3, room: 12, startedOn: '2026-11-29', endedOn: null, nightlyPrice: '120.00' },
        ],
      },
    ],
  });
}

/** Trucks, drivers and their trips. */
export function fleetHost(): HostDefinition {
  const Truck = defineManager({
    name: 'Truck',
    fields: { plate: { type: 'string' }, kind: { type: 'enum', values: ['van', 'lorry', 'pickup'] }, boughtOn: { type: 'date' }, capacityKg: { type: 'integer' } },
    chatExposed: true,
    permissions: open,
  });
  const Driver = defineManager({
    name: 'Driver',
    fields: { fullName: { type: 'string' }, city: { type: 'string' }, country: { type: 'string' }, birthYear: { type: 'integer' } },
    chatExposed: true,
    permissions: open,
  });
  const Trip = defineManager({
    name: 'Trip',
    fields: { startedOn: { type: 'date' }, distanceKm: { type: 'decimal' } },
    relations: { truck: { kind: 'one', target: 'Truck', reverse: 'trips' }, driver: { kind: 'one', target: 'Driver', reverse: 'trips' } },
    chatExposed: true,
    permissions: open,
  });
  return defineHost({
    managers: [Truck, Driver, Trip],
    seed: [
      {
        manager: 'Truck',
        rows: [
          { id: 7, plate: 'AB-12-CD', kind: 'van', boughtOn: '2021-03-15', capacityKg: 1200 },
          { id: 8, plate: 'EF-34-GH', kind: 'lorry', boughtOn: '2019-06-01', capacityKg: 18000 },
          { id: 9, plate: 'IJ-56-KL', kind: 'van', boughtOn: '2024-01-10', capacityKg: 1400 },
        ],
      },
      {
        manager: 'Driver',
        rows: [
          { id: 1, fullName: 'Rui Costa', city: 'Porto', country: 'Portugal', birthYear: 1980 },
          { id: 2, fullName: 'Amina Otieno', city: 'Mombasa', country: 'Kenya', birthYear: 1992 },
        ],
      },
      {
        manager: 'Trip',
        rows: [
          { id: 1, truck: 7, driver: 1, startedOn: '2026-11-02', distanceKm: '320.5' },
          { id: 2, truck: 8, driver: 2, startedOn: '2026-11-15', distanceKm: '812.0' },
        ],
      },
    ],
  });
}
