import { chatHandler } from '../../../../lib/plumb.js';

// Plumb runs on Node (SQLite, fastify), never on the edge runtime, and nothing here is static.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/chat/csrf/, /api/chat/threads/… */
export async function GET(request: Request): Promise<Response> {
  return (await chatHandler()).handle(request);
}

/** POST /api/chat/stream/, /api/chat/confirm/ (and /api/chat/ itself with an optional catch-all, see README). */
export async function POST(request: Request): Promise<Response> {
  return (await chatHandler()).handle(request);
}
