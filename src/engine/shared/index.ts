/**
 * What every room of the engine speaks: the journal's items, the chat events and their channel,
 * the hooks, the error codes, and a run as the rooms below the turn see it. Not a room of its own
 * job: each of these is read and written by all four rooms, so none of them owns it.
 */
export * from './journal.js';
export * from './events.js';
export { EventChannel } from './event-channel.js';
export * from './hooks.js';
export * from './errors.js';
export type { RunSink } from './run-sink.js';
export * from './run-marks.js';
export { isTimeZone, rfc3339In } from './time-zone.js';
export * from './run-phase.js';
