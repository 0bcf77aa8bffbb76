/**
 * Shortcuts as written in a Command ("c", "g then s", "mod+enter") and the
 * matching of key presses against them. Pure (no DOM), unit-tested;
 * useShortcuts feeds it the page's key presses.
 */

/** One key press as a token: "g", "?", "mod+k", "shift+enter", "alt+1". */
export type KeyToken = string;

/** What of a KeyboardEvent a token is made of. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

const NAMED: Record<string, string> = {
  ' ': 'space',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
  esc: 'escape',
  return: 'enter',
};

function normalKey(key: string): string {
  const lower = key.toLowerCase();
  return NAMED[lower] ?? lower;
}

/** The token of a key press; a printable character carries its shift ("?" not "shift+/"). */
export function tokenOf(press: KeyPress): KeyToken {
  const key = normalKey(press.key);
  const modifiers: string[] = [];
  if (press.ctrlKey || press.metaKey) modifiers.push('mod');
  if (press.altKey) modifiers.push('alt');
  if (press.shiftKey && key.length > 1) modifiers.push('shift');
  return [...modifiers, key].join('+');
}

/** A shortcut's tokens: "g then s" is two presses, "mod+Enter" one. */
export function parseShortcut(shortcut: string): KeyToken[] {
  return shortcut
    .trim()
    .split(/\s+then\s+/i)
    .map((step) => {
      const parts = step.split('+').map((part) => normalKey(part.trim()));
      const key = parts.pop() ?? '';
      const mods = new Set(
        parts.map((part) => (/^(ctrl|cmd|meta|control)$/.test(part) ? 'mod' : part)),
      );
      return [...['mod', 'alt', 'shift'].filter((mod) => mods.has(mod)), key].join('+');
    });
}

/** Whether a token needs Ctrl/Cmd or Alt (those work while typing in a field). */
export function isChord(token: KeyToken): boolean {
  return token.startsWith('mod+') || token.startsWith('alt+');
}

/** The keys a shortcut is shown with: "g then s" as ["G", "then", "S"], mod as Ctrl or ⌘. */
export function displayShortcut(shortcut: string, mac: boolean): string[] {
  const words: string[] = [];
  parseShortcut(shortcut).forEach((token, index) => {
    if (index > 0) words.push('then');
    const parts = token.split('+').map((part) => {
      if (part === 'mod') return mac ? '⌘' : 'Ctrl';
      if (part === 'alt') return mac ? '⌥' : 'Alt';
      if (part === 'shift') return 'Shift';
      return part.length === 1 ? part.toUpperCase() : part[0]?.toUpperCase() + part.slice(1);
    });
    words.push(parts.join(mac ? '' : '+'));
  });
  return words;
}

/** Presses further apart than this start a new sequence. */
export const SEQUENCE_MS = 1200;

export interface MatchResult {
  /** The shortcut completed by this press (its id). */
  matched?: string;
  /** This press began or continued a sequence: keep it from the page. */
  pending: boolean;
}

/**
 * Follows key presses against a set of shortcuts (id to tokens), sequences
 * included: "g" then "s" within SEQUENCE_MS runs "g then s"; a press that
 * continues nothing starts afresh.
 */
export class SequenceMatcher {
  private sequence: KeyToken[] = [];
  private at = 0;

  press(token: KeyToken, now: number, shortcuts: ReadonlyMap<string, KeyToken[]>): MatchResult {
    const carried = now - this.at <= SEQUENCE_MS ? this.sequence : [];
    this.at = now;
    for (const sequence of carried.length > 0 ? [[...carried, token], [token]] : [[token]]) {
      const found = this.find(sequence, shortcuts);
      if (found.matched !== undefined) {
        this.sequence = [];
        return found;
      }
      if (found.pending) {
        this.sequence = sequence;
        return found;
      }
    }
    this.sequence = [];
    return { pending: false };
  }

  reset(): void {
    this.sequence = [];
  }

  private find(sequence: KeyToken[], shortcuts: ReadonlyMap<string, KeyToken[]>): MatchResult {
    let pending = false;
    for (const [id, tokens] of shortcuts) {
      if (tokens.length < sequence.length) continue;
      if (!sequence.every((token, index) => tokens[index] === token)) continue;
      if (tokens.length === sequence.length) return { matched: id, pending: false };
      pending = true;
    }
    return { pending };
  }
}

/** What of the focused element decides whether it takes typed keys. */
export interface FocusTarget {
  tagName: string;
  type?: string;
  isContentEditable: boolean;
  role?: string | null;
}

const NOT_TYPED = new Set([
  'button',
  'checkbox',
  'radio',
  'submit',
  'reset',
  'range',
  'color',
  'file',
  'image',
]);

/** Whether single-key shortcuts must leave this element alone (a text field or an editor). */
export function takesTyping(target: FocusTarget): boolean {
  if (target.isContentEditable) return true;
  const tag = target.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') return !NOT_TYPED.has((target.type ?? 'text').toLowerCase());
  return target.role === 'textbox' || target.role === 'combobox' || target.role === 'searchbox';
}
