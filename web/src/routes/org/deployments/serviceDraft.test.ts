import { describe, expect, it } from 'vitest';
import { numberOf } from './serviceDraft.js';

describe('numberOf', () => {
  it('reads a typed number', () => {
    expect(numberOf(' 8080 ')).toBe(8080);
  });

  it('keeps text that is no number as text, so the API refuses it instead of clearing the field', () => {
    expect(JSON.stringify({ port: numberOf('80a') })).toBe('{"port":"80a"}');
    expect(JSON.stringify({ replicas: numberOf('') })).toBe('{"replicas":""}');
  });
});
