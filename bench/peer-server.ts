/**
 * The peer of `bench serve`: what a user would write instead of Plumb — a fastify server whose SSE
 * route runs `ai@6` `streamText` with the same scripted model (one tool call, then ten text chunks)
 * and the same tool (the demo's materials, read from the same SQLite file), keeping each
 * conversation in memory (not durable at all). It speaks the bench client's protocol: a CSRF
 * token route, `POST /chat/stream/` answering `data: {…}` lines that end with `done`.
 * Run as `tsx bench/peer-server.ts DEMO_DB`; prints `listening URL`.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import type { ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import Fastify from 'fastify';

const [dbPath] = process.argv.slice(2);
if (dbPath === undefined) throw new Error('usage: peer-server DEMO_DB');
const db = new Database(dbPath, { readonly: true });
const materials = db.prepare('SELECT name, density FROM material LIMIT ?');

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const chunks = ['Here ', 'are ', 'the ', 'materials ', 'the ', 'shop ', 'uses, ', 'with ', 'their ', 'densities.'];

/** One tool call in a conversation's first round, ten text chunks once the tool answered. */
const model = new MockLanguageModelV3({
  doStream: (options) => {
    const last = options.prompt[options.prompt.length - 1];
    const answered = last?.role === 'tool';
    const parts = answered
      ? [{ type: 'text-start' as const, id: 't' }, ...chunks.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })), { type: 'text-end' as const, id: 't' }, { type: 'finish' as const, usage, finishReason: { unified: 'stop' as const, raw: undefined } }]
      : [
          { type: 'tool-call' as const, toolCallId: `call-${randomUUID()}`, toolName: 'query', input: JSON.stringify({ manager: 'Material', fields: ['name', 'density'], limit: 5 }) },
          { type: 'finish' as const, usage, finishReason: { unified: 'tool-calls' as const, raw: undefined } },
        ];
    const stream = new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    return Promise.resolve({ stream });
  },
});

const tools = {
  query: tool({
    description: 'Reads rows of a manager.',
    inputSchema: jsonSchema<{ manager: string; fields: string[]; limit: number }>({ type: 'object', properties: { manager: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer' } }, required: ['manager', 'fields', 'limit'] }),
    execute: (input) => Promise.resolve({ items: materials.all(input.limit) }),
  }),
};

const conversations = new Map<string, ModelMessage[]>();
const server = Fastify({ logger: false });
server.get('/chat/csrf/', () => ({ token: 'peer' }));
server.post<{ Body: { text: string; thread?: string } }>('/chat/stream/', async (request, reply) => {
  const thread = request.body.thread ?? randomUUID();
  const history = conversations.get(thread) ?? [];
  conversations.set(thread, history);
  history.push({ role: 'user', content: request.body.text });
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const result = streamText({ model, tools, messages: history, stopWhen: stepCountIs(3) });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') raw.write(`data: ${JSON.stringify({ type: 'text_chunk', content: part.text, thread_id: thread })}\n\n`);
    else if (part.type === 'tool-call') raw.write(`data: ${JSON.stringify({ type: 'tool_call', id: part.toolCallId, name: part.toolName, thread_id: thread })}\n\n`);
    else if (part.type === 'tool-result') raw.write(`data: ${JSON.stringify({ type: 'tool_result', id: part.toolCallId, name: part.toolName, thread_id: thread })}\n\n`);
  }
  history.push(...(await result.response).messages);
  raw.end(`data: ${JSON.stringify({ type: 'done', thread_id: thread })}\n\n`);
});
const url = await server.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${url}\n`);
await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
await server.close();
db.close();
