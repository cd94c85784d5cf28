import { describe, expect, it } from 'vitest';
import { AnswerText, eraseSequence } from './answer-text.js';

function io(tty: boolean) {
  const out: string[] = [];
  return { out, io: { stdout: (text: string) => out.push(text), stderr: () => undefined, stdoutIsTTY: tty, stdoutColumns: 10 } };
}

describe("plumb ask's answer text", () => {
  it('streams on a terminal and erases a retried attempt, wrapped lines included', () => {
    const { out, io: terminal } = io(true);
    const text = new AnswerText(terminal);
    text.chunk('Alpha bravo charlie');
    text.retry();
    text.chunk('Fine.');
    text.settle();
    expect(out).toEqual(['Alpha bravo charlie', '\r\u001b[1A\u001b[J', 'Fine.']);
    expect(text.wrote).toBe(true);
  });

  it('prints a round only once it is over anywhere else, so that a retried attempt never shows', () => {
    const { out, io: pipe } = io(false);
    const text = new AnswerText(pipe);
    text.chunk('Alpha ');
    text.retry();
    text.chunk('Alpha ');
    text.chunk('bravo.');
    expect(out).toEqual([]);
    text.settle();
    expect(out).toEqual(['Alpha bravo.']);
  });

  it('counts the rows text takes to move back over it', () => {
    expect(eraseSequence('short', 80)).toBe('\r\u001b[J');
    expect(eraseSequence('one\ntwo\nthree', 80)).toBe('\r\u001b[2A\u001b[J');
    expect(eraseSequence('x'.repeat(25), 10)).toBe('\r\u001b[2A\u001b[J');
  });
});
