import { defineHost } from '../config/index.js';
import type { Authenticate } from '../config/index.js';
import { PlumbError } from '../core/index.js';
import { demoActors } from './actors.js';
import { demoManagers } from './managers.js';
import { demoReadingRulebookYaml, demoVocabularyYaml } from './router/index.js';
import { demoSeed } from './seed-data.js';
import { createDemoHostTools, demoToolSettings } from './tools/index.js';

/** The file `--demo` opens, relative to the working directory (or the configuration's folder). */
export const defaultDemoDatabasePath = '.plumb/demo.sqlite';

/** What a newcomer can ask first: three questions the router answers with no model. */
export const demoExamples = ['which parts are made of steel?', 'how many open tasks does Apollo have?', 'charge order 4411', 'quais peças são de aço?'] as const;

/**
 * The demo's `authenticate`: the user named by the `X-Plumb-User` header (for curl and tests).
 * A header a cross-site page cannot make the browser send, so it is a token credential and CSRF
 * does not apply; the console signs in with its own signed cookie instead. Demo only.
 */
export const authenticateDemoHeader: Authenticate = (request) => {
  const header = request.headers['x-plumb-user'];
  const name = Array.isArray(header) ? header[0] : header;
  if (name === undefined || name === '' || name === 'anonymous') return null;
  const actor = Object.hasOwn(demoActors, name) ? demoActors[name as keyof typeof demoActors] : undefined;
  if (actor === undefined || actor.kind !== 'user') {
    throw new PlumbError('unauthenticated', `Unknown demo user '${name}'. Known users: alice, bob.`);
  }
  return { actor, credential: 'token' };
};

/**
 * The demo shop as a host definition, the way any host app is given to Plumb: its managers, host
 * tools and router files, a seed for a new database, and the settings it runs with by default
 * (its database file, allowed writes, its users and the console's sign-in).
 */
export const demoHost = defineHost({
  managers: demoManagers,
  tools: (app) => createDemoHostTools(app),
  vocabulary: demoVocabularyYaml,
  rulebook: demoReadingRulebookYaml,
  seed: () => demoSeed(new Date()),
  examples: demoExamples,
  settings: {
    database: defaultDemoDatabasePath,
    ...demoToolSettings,
    actors: {
      alice: { id: demoActors.alice.id, roles: [...demoActors.alice.roles], displayName: demoActors.alice.displayName },
      bob: { id: demoActors.bob.id, roles: [...demoActors.bob.roles], displayName: demoActors.bob.displayName },
    },
    consoleSignIn: true,
    authenticate: authenticateDemoHeader,
  },
});
