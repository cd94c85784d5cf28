import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { caseOpener, demoConfirmedTools, demoFixture, loadDataset, metricsOf, runDataset } from './index.js';

const file = join(import.meta.dirname, '..', '..', 'evals', 'datasets', 'demo-default.yaml');
const directory = mkdtempSync(join(tmpdir(), 'plumb-evals-default-'));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the embedded default on the demo-default dataset (no model, SQLite store)', () => {
  it('answers every answered turn correctly, leaves every must-be-unread turn unread, and answers at least 90% of the rest', async () => {
    const dataset = await loadDataset(file);
    const results = await runDataset(dataset, {
      openCase: caseOpener({ fixture: demoFixture, now: new Date(dataset.now), store: 'sqlite', directory }),
      confirmedTools: demoConfirmedTools(),
    });
    const metrics = metricsOf(results);
    const wrong = results.filter((result) => result.verdict === 'wrong').map((result) => `${result.id} "${result.text}": ${result.reasons.join('; ')}`);
    expect(wrong).toEqual([]);
    expect(metrics.precision).toBe(1);
    expect(metrics.unreadShare).toBe(1);
    expect(metrics.coverage).toBeGreaterThanOrEqual(0.9);
  }, 600_000);
});
