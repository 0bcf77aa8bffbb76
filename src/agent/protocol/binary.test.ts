import { describe, expect, it } from 'vitest';
import { BinaryKind, decodeBinary, encodeBinary } from './binary.js';

describe('binary stream messages', () => {
  it('carry the kind, the stream id and the bytes as they are', () => {
    const payload = Buffer.from([0, 255, 10, 13, 0x81]);
    const frame = encodeBinary(BinaryKind.data, 'x12.s34', payload);
    expect(frame.length).toBe(2 + 7 + payload.length);
    const decoded = decodeBinary(frame);
    expect(decoded?.kind).toBe(BinaryKind.data);
    expect(decoded?.id).toBe('x12.s34');
    expect(decoded?.payload.equals(payload)).toBe(true);
    expect(
      decodeBinary(encodeBinary(BinaryKind.input, 's1', Buffer.alloc(0)))?.payload.length,
    ).toBe(0);
  });

  it('refuses what is too short to be one', () => {
    expect(decodeBinary(Buffer.from([1]))).toBeNull();
    expect(decodeBinary(Buffer.from([1, 0]))).toBeNull();
    expect(decodeBinary(Buffer.from([1, 5, 65]))).toBeNull();
  });
});
