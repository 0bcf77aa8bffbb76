import { describe, expect, it } from 'vitest';
import { formatTable } from './output.js';

describe('formatTable', () => {
  it('pads columns to their widest cell, shows empty cells as a dash, leaves no trailing space', () => {
    expect(
      formatTable(
        ['ID', 'NAME', 'BRANCH'],
        [
          ['1', 'web', 'main'],
          ['22', 'a longer name', null],
        ],
      ),
    ).toBe('ID  NAME           BRANCH\n1   web            main\n22  a longer name  -\n');
  });
});
