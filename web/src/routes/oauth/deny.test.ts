import { describe, expect, it } from 'vitest';
import { denialUrl } from './deny.js';

describe('denialUrl', () => {
  it('adds access_denied and the state, keeping the URI’s own query', () => {
    expect(denialUrl('https://app.example/cb?x=1', 'a b')).toBe(
      'https://app.example/cb?x=1&error=access_denied&state=a+b',
    );
    expect(denialUrl('http://127.0.0.1:4000/cb', undefined)).toBe(
      'http://127.0.0.1:4000/cb?error=access_denied',
    );
  });
});
