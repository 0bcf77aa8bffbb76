import { describe, expect, it } from 'vitest';
import {
  displayShortcut,
  isChord,
  type KeyPress,
  parseShortcut,
  SEQUENCE_MS,
  SequenceMatcher,
  takesTyping,
  tokenOf,
} from './shortcuts.js';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...extra,
});

describe('tokens', () => {
  it('names a press as a shortcut names it', () => {
    expect(tokenOf(press('C'))).toBe('c');
    expect(tokenOf(press('?', { shiftKey: true }))).toBe('?');
    expect(tokenOf(press('k', { metaKey: true }))).toBe('mod+k');
    expect(tokenOf(press('k', { ctrlKey: true }))).toBe('mod+k');
    expect(tokenOf(press('Enter', { shiftKey: true }))).toBe('shift+enter');
    expect(tokenOf(press('ArrowDown'))).toBe('down');
  });

  it('parses single keys, chords and sequences', () => {
    expect(parseShortcut('c')).toEqual(['c']);
    expect(parseShortcut('g then s')).toEqual(['g', 's']);
    expect(parseShortcut('Mod+Enter')).toEqual(['mod+enter']);
    expect(parseShortcut('shift+ctrl+K')).toEqual(['mod+shift+k']);
    expect(isChord('mod+k')).toBe(true);
    expect(isChord('c')).toBe(false);
  });

  it('shows a shortcut with the platform’s modifier', () => {
    expect(displayShortcut('g then s', false)).toEqual(['G', 'then', 'S']);
    expect(displayShortcut('mod+enter', false)).toEqual(['Ctrl+Enter']);
    expect(displayShortcut('mod+k', true)).toEqual(['⌘K']);
  });
});

describe('SequenceMatcher', () => {
  const shortcuts = new Map([
    ['create', ['c']],
    ['settings', ['g', 's']],
    ['activity', ['g', 'a']],
    ['save', ['mod+enter']],
  ]);

  it('matches a single key and a chord at once', () => {
    const matcher = new SequenceMatcher();
    expect(matcher.press('c', 0, shortcuts)).toEqual({ matched: 'create', pending: false });
    expect(matcher.press('mod+enter', 10, shortcuts)).toEqual({ matched: 'save', pending: false });
  });

  it('matches a sequence pressed in time, not a late one', () => {
    const matcher = new SequenceMatcher();
    expect(matcher.press('g', 0, shortcuts)).toEqual({ pending: true });
    expect(matcher.press('s', 300, shortcuts)).toEqual({ matched: 'settings', pending: false });
    matcher.press('g', 1000, shortcuts);
    expect(matcher.press('s', 1000 + SEQUENCE_MS + 1, shortcuts)).toEqual({ pending: false });
  });

  it('starts afresh on a press that continues nothing', () => {
    const matcher = new SequenceMatcher();
    matcher.press('g', 0, shortcuts);
    expect(matcher.press('c', 100, shortcuts)).toEqual({ matched: 'create', pending: false });
    matcher.press('g', 200, shortcuts);
    expect(matcher.press('x', 300, shortcuts)).toEqual({ pending: false });
    expect(matcher.press('a', 400, shortcuts)).toEqual({ pending: false });
    matcher.press('g', 500, shortcuts);
    expect(matcher.press('g', 600, shortcuts)).toEqual({ pending: true });
    expect(matcher.press('a', 700, shortcuts)).toEqual({ matched: 'activity', pending: false });
  });
});

describe('takesTyping', () => {
  const element = (tagName: string, extra: Partial<Parameters<typeof takesTyping>[0]> = {}) => ({
    tagName,
    isContentEditable: false,
    ...extra,
  });

  it('leaves text fields and editors alone, not buttons or links', () => {
    expect(takesTyping(element('INPUT'))).toBe(true);
    expect(takesTyping(element('INPUT', { type: 'search' }))).toBe(true);
    expect(takesTyping(element('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(takesTyping(element('TEXTAREA'))).toBe(true);
    expect(takesTyping(element('DIV', { isContentEditable: true }))).toBe(true);
    expect(takesTyping(element('DIV', { role: 'combobox' }))).toBe(true);
    expect(takesTyping(element('BUTTON'))).toBe(false);
    expect(takesTyping(element('A'))).toBe(false);
  });
});
