import { describe, expect, it } from 'vitest';
import { BRANCH_MAX, branchName, slugify } from './branchName.js';

describe('the branch named from a card', () => {
  it('is the key lowercased and the title in words joined by dashes', () => {
    expect(branchName('ABC-123', 'Short title')).toBe('abc-123-short-title');
  });

  it('keeps only ASCII letters and digits, accents dropped, runs of others one dash', () => {
    expect(branchName('RM-7', '  Crème brûlée: fix the   oven (again)!  ')).toBe(
      'rm-7-creme-brulee-fix-the-oven-again',
    );
    expect(slugify('Ünïcödé — 東京 2024')).toBe('unicode-2024');
  });

  it('is at most 50 characters, cut between words, never ending in a dash', () => {
    const name = branchName(
      'ENG-1234',
      'Make the importer accept very large spreadsheets without timing out',
    );
    expect(name).toBe('eng-1234-make-the-importer-accept-very-large');
    expect(name.length).toBeLessThanOrEqual(BRANCH_MAX);
    expect(name.endsWith('-')).toBe(false);
  });

  it('cuts a single word too long to fit inside it', () => {
    const name = branchName('X-1', 'a'.repeat(80));
    expect(name).toBe(`x-1-${'a'.repeat(46)}`);
    expect(name).toHaveLength(BRANCH_MAX);
  });

  it('fills exactly 50 characters when the title fits to the last one', () => {
    const title = `${'b'.repeat(20)} ${'c'.repeat(25)}`;
    expect(branchName('X-1', title)).toBe(`x-1-${'b'.repeat(20)}-${'c'.repeat(25)}`);
  });

  it('is the key alone when the title has no letter or digit', () => {
    expect(branchName('OPS-9', '!!! ???')).toBe('ops-9');
    expect(branchName('OPS-9', '東京')).toBe('ops-9');
  });

  it('never ends in a dash when the cut falls after one', () => {
    for (let length = 1; length < 60; length += 1) {
      const name = branchName('AB-12', `${'word '.repeat(length)}`);
      expect(name.endsWith('-')).toBe(false);
      expect(name.length).toBeLessThanOrEqual(BRANCH_MAX);
    }
  });
});
