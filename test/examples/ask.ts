import { expect } from 'vitest';

export const question = 'which parts are made of steel?';
/** What the router answers from the demo's rows, with no model. */
export const steelAnswer = '5 parts where material is Steel:';

export interface ChatAnswer {
  readonly answer: string;
  readonly events: readonly { readonly type: string; readonly [field: string]: unknown }[];
}

/** Sends the question as a browser's page does: a CSRF token first, then the pair with the POST. */
export async function askAsBrowser(send: (path: string, init?: RequestInit) => Promise<Response>, chatUrl: string, path: '' | 'stream/', text: string = question): Promise<Response> {
  const issued = await send(`${chatUrl}csrf/`);
  expect(issued.status).toBe(200);
  const { token } = (await issued.json()) as { token: string };
  const cookie = issued.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return send(`${chatUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie }, body: JSON.stringify({ text }) });
}

/** The events of an SSE body, in order. */
export async function sseEvents(response: Response): Promise<ChatAnswer['events']> {
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as ChatAnswer['events'][number]);
}

/** The answer an SSE turn streamed: its text chunks joined. */
export function streamedText(events: ChatAnswer['events']): string {
  return events
    .filter((event) => event.type === 'text_chunk')
    .map((event) => String(event.content))
    .join('');
}
