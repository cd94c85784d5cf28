import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyHttpFailure, parseRetryAfter, providersErrorCodes } from './index.js';

describe('providers error catalogue', () => {
  it('documents every code in docs/providers.md and nothing else', () => {
    const docs = readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Error codes'));
    const documented = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(providersErrorCodes).sort());
  });
});

describe('HTTP failure classification', () => {
  it.each([
    [401, '{"error":{"message":"Incorrect API key"}}', 'provider_auth', false],
    [403, '{"error":{"message":"forbidden"}}', 'provider_auth', false],
    [429, '{"error":{"message":"Rate limit"}}', 'provider_rate_limited', true],
    [500, 'upstream exploded', 'provider_unavailable', true],
    [503, '', 'provider_unavailable', true],
    [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'provider_unavailable', true],
    [400, '{"error":{"message":"This model\'s maximum context length is 128000 tokens","code":"context_length_exceeded"}}', 'provider_context_too_long', false],
    [400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}', 'provider_context_too_long', false],
    [413, '', 'provider_context_too_long', false],
    [400, '{"error":{"message":"Invalid value for tools[0]"}}', 'provider_invalid_request', false],
    [404, '{"error":"model \\"llama9\\" not found"}', 'provider_invalid_request', false],
  ])('HTTP %i %s → %s (retryable %s)', (status, body, code, retryable) => {
    const error = classifyHttpFailure({ provider: 'test', status, body });
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retryable);
    expect(error.status).toBe(status);
  });

  it('keeps the request id and the provider message in details, not in the message', () => {
    const error = classifyHttpFailure({
      provider: 'anthropic',
      status: 401,
      headers: new Headers({ 'request-id': 'req_123' }),
      body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    });
    expect(error.details).toMatchObject({ provider: 'anthropic', status: 401, requestId: 'req_123', providerMessage: 'invalid x-api-key' });
    expect(error.message).not.toContain('invalid x-api-key');
    expect(JSON.stringify(error)).not.toContain('invalid x-api-key');
    expect(error.toJSON()).toEqual({ code: 'provider_auth', message: error.message, details: { provider: 'anthropic', retryable: false, status: 401, requestId: 'req_123' } });
  });

  it('honours x-should-retry: false over the status', () => {
    const error = classifyHttpFailure({ provider: 'openai', status: 500, headers: { 'x-should-retry': 'false' } });
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: false });
  });

  it('reads Retry-After as seconds, HTTP date or retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(undefined, '7', now)).toBe(7);
    expect(parseRetryAfter(undefined, 'Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('1500', '7', now)).toBe(1.5);
    expect(parseRetryAfter(undefined, 'soon', now)).toBeUndefined();
    expect(classifyHttpFailure({ provider: 'x', status: 429, headers: { 'retry-after': '3' } }).retryAfterSeconds).toBe(3);
  });
});
