import { describe, expect, it } from 'vitest';
import { decodeOutput } from './tmux-control.js';

describe('decodeOutput', () => {
  it('turns the octal escapes of %output back into the bytes, and leaves the rest as is', () => {
    const encoded = Buffer.concat([
      Buffer.from('a\\015\\012\\033[31m\\134 '),
      Buffer.from('é', 'utf8'),
      Buffer.from([0xff]),
    ]);
    expect(decodeOutput(encoded)).toEqual(
      Buffer.concat([
        Buffer.from('a\r\n\x1b[31m\\ '),
        Buffer.from('é', 'utf8'),
        Buffer.from([0xff]),
      ]),
    );
    expect(decodeOutput(Buffer.from('plain'))).toEqual(Buffer.from('plain'));
  });
});
