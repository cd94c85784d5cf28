import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig, storeLocation } from './index.js';

const root = '/srv/app';

function journalFor(settings: { database: string; store?: string }) {
  return storeLocation(parseConfig(settings), root);
}

describe('where the journal goes when store is not set', () => {
  it("shares Plumb's own SQLite file in .plumb/ (the demo's and plumb init's)", () => {
    expect(journalFor({ database: 'sqlite:.plumb/app.sqlite' })).toEqual({ kind: 'sqlite', path: join(root, '.plumb/app.sqlite') });
  });

  it("never writes into the host's own SQLite file: .plumb/chat.sqlite beside the configuration", () => {
    expect(journalFor({ database: 'data/shop.sqlite' })).toEqual({ kind: 'sqlite', path: join(root, '.plumb/chat.sqlite') });
    expect(journalFor({ database: '/var/lib/shop.sqlite' })).toEqual({ kind: 'sqlite', path: join(root, '.plumb/chat.sqlite') });
    expect(journalFor({ database: '.plumbing/shop.sqlite' })).toEqual({ kind: 'sqlite', path: join(root, '.plumb/chat.sqlite') });
  });

  it('keeps PostgreSQL data untouched and an in-memory database with an in-memory journal', () => {
    expect(journalFor({ database: 'postgres://u:p@127.0.0.1:5432/shop' })).toEqual({ kind: 'sqlite', path: join(root, '.plumb/chat.sqlite') });
    expect(journalFor({ database: ':memory:' })).toEqual({ kind: 'memory' });
  });

  it('goes where store says when it is set', () => {
    expect(journalFor({ database: 'data/shop.sqlite', store: 'data/shop.sqlite' })).toEqual({ kind: 'sqlite', path: join(root, 'data/shop.sqlite') });
  });
});
