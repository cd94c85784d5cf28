/** Routers over the demo's files, for the router's tests. */
import { demoCatalogue, demoRulebookYaml, demoVocabularyYaml } from '../../src/demo/index.js';
import type { Router, RulebookInput } from '../../src/router/index.js';
import { createRouter, loadRulebook } from '../../src/router/index.js';

export const SECRET = 'test-secret-0123456789abcdef';

export function demoRouter(overrides: Partial<RulebookInput> = {}, sessionIds: readonly string[] = ['session-1', 'session-2', 'session-3']): Router {
  const base = loadRulebook(demoRulebookYaml);
  // The reference examples are read against a host that runs no calculations.
  const { digest: _digest, ...rulebook } = { ...base, compute: false };
  let next = 0;
  return createRouter({
    catalogue: demoCatalogue,
    rulebook: { ...rulebook, ...overrides },
    vocabulary: demoVocabularyYaml,
    secret: SECRET,
    newSessionId: () => sessionIds[next++ % sessionIds.length] ?? 'session',
  });
}
