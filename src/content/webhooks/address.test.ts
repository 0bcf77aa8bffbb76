import { describe, expect, it } from 'vitest';
import { isPrivateAddress, publicOnlyLookup } from './address.js';
import { patternMatches, typesOf } from './patterns.js';

describe('private addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.0.0.8', true],
    ['172.20.1.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
    ['::ffff:93.184.216.34', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('refuses a name that resolves to loopback at connect time', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (failure) => resolve(failure)),
    );
    expect(error?.message).toMatch(/private address/);
  });
});

describe('event type patterns', () => {
  it('accepts *, a family or an exact type', () => {
    expect(typesOf('*').length).toBeGreaterThan(20);
    expect(typesOf('item.*')).toContain('item.moved');
    expect(typesOf('collection_group.*')).toEqual([
      'collection_group.created',
      'collection_group.updated',
      'collection_group.deleted',
    ]);
    expect(typesOf('item.created')).toEqual(['item.created']);
    for (const bad of ['item', 'item.', 'item.**', '*.created', 'items.*', 'ITEM.created', '']) {
      expect(typesOf(bad), bad).toEqual([]);
    }
    expect(patternMatches('item.*', 'item_x.created')).toBe(false);
  });
});
