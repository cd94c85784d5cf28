export { createServer } from './create-server.js';
export type { Authenticate, PlumbServer, ServerOptions } from './create-server.js';
export { serverErrorCodes } from './errors.js';
export type { ServerErrorCode } from './errors.js';
