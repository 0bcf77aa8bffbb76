import { describe, expect, it } from 'vitest';
import { bytesOf } from './useFrames.js';

describe('bytesOf', () => {
  it('gives the raw bytes of base64 data, a character split across two frames included', () => {
    const bytes = Buffer.from('héllo ✓', 'utf8');
    const first = bytesOf(bytes.subarray(0, 2).toString('base64'));
    const second = bytesOf(bytes.subarray(2).toString('base64'));
    expect([...first, ...second]).toEqual([...bytes]);
    const decoder = new TextDecoder();
    expect(decoder.decode(first, { stream: true }) + decoder.decode(second)).toBe('héllo ✓');
  });

  it('gives no bytes for what is not base64 text', () => {
    expect(bytesOf(undefined)).toEqual(new Uint8Array());
    expect(bytesOf(42)).toEqual(new Uint8Array());
  });
});
