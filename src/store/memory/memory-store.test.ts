import { runStoreConformance } from '../conformance.js';
import { createMemoryStore } from '../index.js';

runStoreConformance({ name: 'memory', durable: false, open: async (clock) => Promise.resolve({ store: createMemoryStore({ clock }) }) });
