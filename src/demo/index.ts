export { createDemoApp, defaultDemoDatabasePath } from './demo-app.js';
export type { DemoAppOptions } from './demo-app.js';
export { demoActors, demoActor, demoActorNames } from './actors.js';
export type { DemoActorName } from './actors.js';
export { authenticateDemo } from './authenticate.js';
export { demoManagers } from './managers.js';
export { demoSeed, scaledSeed } from './seed-data.js';
export type { SeedBatch } from './seed-data.js';
