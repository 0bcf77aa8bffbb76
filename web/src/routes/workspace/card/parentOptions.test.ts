import { describe, expect, it } from 'vitest';
import { type Candidate, looksLikeKey, MAX_OPTIONS, parentOptions } from './parentOptions.js';

const card = { id: 'card', parentId: null };

function candidate(id: string, title: string, parentId: string | null = null): Candidate {
  return { id, key: `RM-${id}`, title, parentId, collectionId: 'list' };
}

const offered = (options: ReturnType<typeof parentOptions>) =>
  options.map((option) => [option.candidate.id, option.refusal === undefined]);

describe('parentOptions', () => {
  it('keeps each card once, in the order found when they match alike', () => {
    const found = [candidate('1', 'Alpha launch'), candidate('2', 'Beta launch')];
    expect(offered(parentOptions('launch', [...found, found[0]!], card, new Set()))).toEqual([
      ['1', true],
      ['2', true],
    ]);
  });

  it('puts the exact key first, then titles starting with the text', () => {
    const found = [
      candidate('1', 'The launch'),
      candidate('2', 'Launch plan'),
      candidate('3', 'Other', null),
    ];
    expect(parentOptions('rm-3', found, card, new Set())[0]?.candidate.id).toBe('3');
    expect(offered(parentOptions('launch', found, card, new Set()))).toEqual([
      ['2', true],
      ['1', true],
      ['3', true],
    ]);
  });

  it('leaves out the current parent', () => {
    const found = [candidate('1', 'Launch'), candidate('2', 'Launch again')];
    const options = parentOptions('launch', found, { id: 'card', parentId: '1' }, new Set());
    expect(offered(options)).toEqual([['2', true]]);
  });

  it('refuses the card itself, its sub-items and theirs, in words, after the others', () => {
    const found = [
      candidate('card', 'Launch the site'),
      candidate('child', 'Launch copy', 'card'),
      candidate('known', 'Launch known child', 'elsewhere'),
      candidate('grandchild', 'Launch translation', 'known'),
      candidate('free', 'Launch party'),
    ];
    const options = parentOptions('launch', found, card, new Set(['known']));
    expect(offered(options)).toEqual([
      ['free', true],
      ['card', false],
      ['child', false],
      ['known', false],
      ['grandchild', false],
    ]);
    expect(options[1]?.refusal).toBe('This card itself');
    expect(options[2]?.refusal).toBe('A sub-item of this card: it cannot be its parent');
  });

  it(`shows at most ${MAX_OPTIONS}`, () => {
    const found = Array.from({ length: 30 }, (_, index) => candidate(String(index), 'Launch'));
    expect(parentOptions('launch', found, card, new Set())).toHaveLength(MAX_OPTIONS);
  });
});

describe('looksLikeKey', () => {
  it('reads keys as people write them', () => {
    expect(looksLikeKey('ENG-12')).toBe(true);
    expect(looksLikeKey(' eng-3 ')).toBe(true);
    expect(looksLikeKey('ENG 12')).toBe(false);
    expect(looksLikeKey('launch-plan')).toBe(false);
    expect(looksLikeKey('-12')).toBe(false);
  });
});
