/**
 * Three host apps in domains the reader was never tuned for — a fleet (drivers, trucks, trailers,
 * trips, loads, repairs), a hostel (guests, rooms, rentals) and a school (teachers, students,
 * classes) — built from names, types, relations and a few descriptions only, with a few seed rows.
 * Their Portuguese files give each manager and field its Portuguese name and nothing else, as a host
 * serving Portuguese would.
 */
import { defineHost } from '../../config/index.js';
import type { HostDefinition } from '../../config/index.js';
import { defineManager } from '../../data/index.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };

/** Drivers, trucks, trailers, trips, loads and repairs. */
export function fleetHost(): { host: HostDefinition; vocabulary: string } {
  const Driver = defineManager({
    name: 'Driver',
    fields: { fullName: { type: 'string' }, city: { type: 'string' }, age: { type: 'integer' }, hiredOn: { type: 'date' }, licenseClass: { type: 'enum', values: ['B', 'C', 'CE'] } },
    chatExposed: true,
    permissions: open,
  });
  const Truck = defineManager({
    name: 'Truck',
    fields: { plate: { type: 'string' }, model: { type: 'string' }, builtYear: { type: 'integer', description: 'The year the truck was built.' }, capacityKg: { type: 'decimal' }, mileageKm: { type: 'integer' }, kind: { type: 'enum', values: ['van', 'rigid', 'tractor'] } },
    chatExposed: true,
    permissions: open,
  });
  const Trailer = defineManager({
    name: 'Trailer',
    fields: { code: { type: 'string' }, builtYear: { type: 'integer' }, purchasedOn: { type: 'date' }, lengthM: { type: 'decimal' } },
    chatExposed: true,
    permissions: open,
  });
  const Trip = defineManager({
    name: 'Trip',
    fields: {
      departedOn: { type: 'date' },
      origin: { type: 'string' },
      destination: { type: 'string' },
      distanceKm: { type: 'decimal' },
      durationMinutes: { type: 'integer' },
      shift: { type: 'enum', values: ['day', 'night'] },
    },
    relations: { driver: { kind: 'one', target: 'Driver' }, truck: { kind: 'one', target: 'Truck' } },
    chatExposed: true,
    permissions: open,
  });
  const Load = defineManager({
    name: 'Load',
    fields: { label: { type: 'string' }, weightKg: { type: 'decimal' }, cargo: { type: 'enum', values: ['food', 'machinery', 'furniture'] } },
    relations: { trip: { kind: 'one', target: 'Trip' } },
    chatExposed: true,
    permissions: open,
  });
  const Repair = defineManager({
    name: 'Repair',
    fields: { repairedOn: { type: 'date' }, costEur: { type: 'decimal' }, work: { type: 'string' }, paidOn: { type: 'date', nullable: true, description: 'When the garage was paid; empty until then.' } },
    relations: { truck: { kind: 'one', target: 'Truck' } },
    chatExposed: true,
    permissions: open,
  });
  const host = defineHost({
    managers: [Driver, Truck, Trailer, Trip, Load, Repair],
    seed: [
      {
        manager: 'Driver',
        rows: [
          { id: 1, fullName: 'Ana Reis', city: 'Porto', age: 41, hiredOn: '2015-03-01', licenseClass: 'CE' },
          { id: 2, fullName: 'Bruno Dias', city: 'Lisbon', age: 29, hiredOn: '2021-06-15', licenseClass: 'C' },
          { id: 3, fullName: 'Carla Neves', city: 'Porto', age: 35, hiredOn: '2018-09-10', licenseClass: 'C' },
        ],
      },
      {
        manager: 'Truck',
        rows: [
          { id: 1, plate: 'AA-01-BB', model: 'Actros', builtYear: 2012, capacityKg: 18000, mileageKm: 640000, kind: 'tractor' },
          { id: 2, plate: 'CC-02-DD', model: 'Sprinter', builtYear: 2020, capacityKg: 1400, mileageKm: 90000, kind: 'van' },
          { id: 3, plate: 'EE-03-FF', model: 'Atego', builtYear: 2016, capacityKg: 7500, mileageKm: 310000, kind: 'rigid' },
        ],
      },
      { manager: 'Trailer', rows: [{ id: 1, code: 'TR-1', builtYear: 2010, purchasedOn: '2014-05-01', lengthM: 13.6 }, { id: 2, code: 'TR-2', builtYear: 2019, purchasedOn: '2019-07-01', lengthM: 7.2 }] },
      {
        manager: 'Trip',
        rows: [
          { id: 1, departedOn: '2026-05-04', origin: 'Porto', destination: 'Madrid', distanceKm: 560, durationMinutes: 420, shift: 'night', driver: 1, truck: 1 },
          { id: 2, departedOn: '2026-05-20', origin: 'Lisbon', destination: 'Porto', distanceKm: 313, durationMinutes: 200, shift: 'day', driver: 2, truck: 2 },
          { id: 3, departedOn: '2026-06-02', origin: 'Porto', destination: 'Braga', distanceKm: 55, durationMinutes: 50, shift: 'night', driver: 1, truck: 3 },
          { id: 4, departedOn: '2026-11-12', origin: 'Madrid', destination: 'Lisbon', distanceKm: 625, durationMinutes: 480, shift: 'night', driver: 3, truck: 1 },
        ],
      },
      { manager: 'Load', rows: [{ id: 1, label: 'Tiles', weightKg: 12000, cargo: 'machinery', trip: 1 }, { id: 2, label: 'Oranges', weightKg: 900, cargo: 'food', trip: 2 }, { id: 3, label: 'Sofas', weightKg: 2300, cargo: 'furniture', trip: 4 }] },
      {
        manager: 'Repair',
        rows: [
          { id: 1, repairedOn: '2026-02-10', costEur: 1200, work: 'Brakes', paidOn: '2026-02-20', truck: 1 },
          { id: 2, repairedOn: '2026-09-01', costEur: 340, work: 'Lights', paidOn: null, truck: 2 },
          { id: 3, repairedOn: '2026-11-20', costEur: 2800, work: 'Gearbox', paidOn: null, truck: 1 },
        ],
      },
    ],
  });
  const vocabulary = `languages:
  pt-BR:
    data:
      managers:
        Driver: [motorista, motoristas]
        Truck: [caminhão, caminhões]
        Trailer: [reboque, reboques]
        Trip: [viagem, viagens]
        Load: [carga, cargas]
        Repair: [reparo, reparos]
      fields:
        Driver.fullName: [nome]
        Driver.city: [cidade]
        Driver.age: [idade]
        Driver.hiredOn: [contratado em, contratação]
        Truck.plate: [placa]
        Truck.builtYear: [ano de fabricação]
        Truck.capacityKg: [capacidade]
        Truck.mileageKm: [quilometragem]
        Trailer.lengthM: [comprimento]
        Trip.departedOn: [partida]
        Trip.distanceKm: [distância]
        Trip.durationMinutes: [duração]
        Trip.shift: [turno]
        Load.weightKg: [peso]
        Repair.repairedOn: [data do reparo]
        Repair.costEur: [custo]
        Repair.paidOn: [pago em, pagamento]
`;
  return { host, vocabulary };
}

/** Guests, rooms and rentals. */
export function hostelHost(): { host: HostDefinition; vocabulary: string } {
  const Guest = defineManager({
    name: 'Guest',
    fields: { fullName: { type: 'string' }, email: { type: 'string' }, country: { type: 'string' }, birthDate: { type: 'date' } },
    chatExposed: true,
    permissions: open,
  });
  const Room = defineManager({
    name: 'Room',
    fields: { name: { type: 'string' }, beds: { type: 'integer' }, freeBeds: { type: 'integer' }, floor: { type: 'integer' }, priceEur: { type: 'decimal', description: 'Price per night.' }, kind: { type: 'enum', values: ['dorm', 'private', 'suite'] } },
    chatExposed: true,
    permissions: open,
  });
  const Rental = defineManager({
    name: 'Rental',
    fields: {
      bookedOn: { type: 'date', description: 'When the booking was made.' },
      startedOn: { type: 'date' },
      endedOn: { type: 'date', nullable: true, description: 'The day the guest left; empty while the stay goes on.' },
      totalEur: { type: 'decimal' },
    },
    relations: { guest: { kind: 'one', target: 'Guest' }, room: { kind: 'one', target: 'Room' } },
    chatExposed: true,
    permissions: open,
  });
  const host = defineHost({
    managers: [Guest, Room, Rental],
    seed: [
      {
        manager: 'Guest',
        rows: [
          { id: 1, fullName: 'Lea Martin', email: 'lea@example.com', country: 'France', birthDate: '1995-04-02' },
          { id: 2, fullName: 'Tiago Alves', email: 'tiago@example.com', country: 'Brazil', birthDate: '2001-10-19' },
          { id: 3, fullName: 'Mia Svensson', email: 'mia@example.com', country: 'Sweden', birthDate: '1988-01-30' },
        ],
      },
      {
        manager: 'Room',
        rows: [
          { id: 1, name: 'Dorm A', beds: 8, freeBeds: 2, floor: 1, priceEur: 25, kind: 'dorm' },
          { id: 2, name: 'Dorm B', beds: 6, freeBeds: 0, floor: 2, priceEur: 28, kind: 'dorm' },
          { id: 3, name: 'Garden', beds: 2, freeBeds: 2, floor: 0, priceEur: 70, kind: 'private' },
          { id: 4, name: 'Loft', beds: 2, freeBeds: 0, floor: 3, priceEur: 120, kind: 'suite' },
        ],
      },
      {
        manager: 'Rental',
        rows: [
          { id: 1, bookedOn: '2026-01-12', startedOn: '2026-02-01', endedOn: '2026-02-05', totalEur: 100, guest: 1, room: 1 },
          { id: 2, bookedOn: '2026-01-20', startedOn: '2026-11-28', endedOn: null, totalEur: 280, guest: 2, room: 3 },
          { id: 3, bookedOn: '2026-11-02', startedOn: '2026-11-25', endedOn: null, totalEur: 960, guest: 3, room: 4 },
        ],
      },
    ],
  });
  const vocabulary = `languages:
  pt-BR:
    data:
      managers:
        Guest: [hóspede, hóspedes]
        Room: [quarto, quartos]
        Rental: [estadia, estadias, aluguel, aluguéis]
      fields:
        Guest.fullName: [nome]
        Guest.country: [país]
        Guest.birthDate: [data de nascimento, nascimento]
        Room.name: [nome]
        Room.beds: [camas]
        Room.freeBeds: [camas livres]
        Room.floor: [andar]
        Room.priceEur: [preço]
        Rental.bookedOn: [reservado em, reserva]
        Rental.startedOn: [início]
        Rental.endedOn: [fim, saída]
        Rental.totalEur: [total]
`;
  return { host, vocabulary };
}

/** Teachers, students and classes. */
export function schoolHost(): { host: HostDefinition; vocabulary: string } {
  const Teacher = defineManager({
    name: 'Teacher',
    fields: { fullName: { type: 'string' }, subject: { type: 'string' }, birthYear: { type: 'integer' }, hiredOn: { type: 'date' } },
    chatExposed: true,
    permissions: open,
  });
  const Student = defineManager({
    name: 'Student',
    fields: { fullName: { type: 'string' }, grade: { type: 'integer' }, birthDate: { type: 'date' } },
    relations: { tutor: { kind: 'one', target: 'Teacher', nullable: true } },
    chatExposed: true,
    permissions: open,
  });
  const Lesson = defineManager({
    name: 'Class',
    fields: { title: { type: 'string' }, grade: { type: 'integer' }, startsAt: { type: 'datetime' }, seats: { type: 'integer' }, seatsFree: { type: 'integer' }, room: { type: 'string' } },
    relations: { teacher: { kind: 'one', target: 'Teacher' } },
    chatExposed: true,
    permissions: open,
  });
  const host = defineHost({
    managers: [Teacher, Student, Lesson],
    seed: [
      {
        manager: 'Teacher',
        rows: [
          { id: 1, fullName: 'Grace Okafor', subject: 'Mathematics', birthYear: 1979, hiredOn: '2010-09-01' },
          { id: 2, fullName: 'Daniel Lee', subject: 'History', birthYear: 1990, hiredOn: '2019-09-01' },
        ],
      },
      {
        manager: 'Student',
        rows: [
          { id: 1, fullName: 'Amara Diallo', grade: 5, birthDate: '2015-03-14', tutor: 1 },
          { id: 2, fullName: 'Jonas Weber', grade: 6, birthDate: '2014-07-02', tutor: null },
          { id: 3, fullName: 'Sofia Rossi', grade: 5, birthDate: '2015-11-23', tutor: 2 },
        ],
      },
      {
        manager: 'Class',
        rows: [
          { id: 1, title: 'Fractions', grade: 5, startsAt: '2026-11-30T09:00:00Z', seats: 20, seatsFree: 0, room: 'B1', teacher: 1 },
          { id: 2, title: 'Romans', grade: 5, startsAt: '2026-12-03T10:00:00Z', seats: 24, seatsFree: 4, room: 'B2', teacher: 2 },
          { id: 3, title: 'Geometry', grade: 6, startsAt: '2026-12-04T09:00:00Z', seats: 20, seatsFree: 3, room: 'B1', teacher: 1 },
          { id: 4, title: 'Decimals', grade: 5, startsAt: '2026-12-08T09:00:00Z', seats: 20, seatsFree: 6, room: 'B1', teacher: 1 },
        ],
      },
    ],
  });
  const vocabulary = `languages:
  pt-BR:
    data:
      managers:
        Teacher: [professor, professores, professora, professoras]
        Student: [aluno, alunos, aluna, alunas]
        Class: [aula, aulas, turma, turmas]
      fields:
        Teacher.fullName: [nome]
        Teacher.subject: [disciplina]
        Teacher.birthYear: [ano de nascimento]
        Student.fullName: [nome]
        Student.grade: [série, ano]
        Class.title: [título]
        Class.grade: [série, ano]
        Class.startsAt: [início, começa]
        Class.seats: [lugares, vagas]
        Class.seatsFree: [lugares livres, vagas livres]
`;
  return { host, vocabulary };
}
