/**
 * `plumb-agent/testing`: the conformance suites a host runs against its own implementation of a
 * contract (the store's, for now), under vitest. The only part of Plumb that imports vitest: it is
 * an optional peer, needed only here.
 */
export { runStoreConformance } from '../store/conformance.js';
export type { StoreConformanceOptions, StoreFixture } from '../store/conformance.js';
