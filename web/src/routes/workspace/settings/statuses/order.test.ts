import { describe, expect, it } from 'vitest';
import { moveWithinCategory } from './order.js';

const statuses = [
  { id: 'a', category: 'unstarted' },
  { id: 'b', category: 'started' },
  { id: 'c', category: 'unstarted' },
  { id: 'd', category: 'completed' },
  { id: 'e', category: 'unstarted' },
];

describe('moving a status within its category', () => {
  it('moves down and up among the slots of its category, the others staying put', () => {
    expect(moveWithinCategory(statuses, 'a', 'c')).toEqual(['c', 'b', 'a', 'd', 'e']);
    expect(moveWithinCategory(statuses, 'a', 'e')).toEqual(['c', 'b', 'e', 'd', 'a']);
    expect(moveWithinCategory(statuses, 'e', 'a')).toEqual(['e', 'b', 'a', 'd', 'c']);
  });

  it('cites every status once', () => {
    const order = moveWithinCategory(statuses, 'c', 'e') ?? [];
    expect([...order].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('moves nothing onto itself, across categories or for an unknown id', () => {
    expect(moveWithinCategory(statuses, 'a', 'a')).toBeUndefined();
    expect(moveWithinCategory(statuses, 'a', 'b')).toBeUndefined();
    expect(moveWithinCategory(statuses, 'x', 'a')).toBeUndefined();
  });
});
