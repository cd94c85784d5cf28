import type { Engine } from '../engine/index.js';
import type { ChatEngine } from './engine-port.js';

/** Compile-time proof that the engine satisfies the port the transports use. */
export const engineFitsPort = (engine: Engine): ChatEngine => engine;
