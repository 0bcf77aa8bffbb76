import { useEffect, useRef } from 'react';
import type { Command } from './registry.js';
import { isChord, parseShortcut, SequenceMatcher, takesTyping, tokenOf } from './shortcuts.js';

export interface ShortcutHandlers {
  /** Ctrl/Cmd-K, from anywhere (a text field included). */
  togglePalette: () => void;
  /** `?`: the dialog that lists the shortcuts. */
  openHelp: () => void;
}

const HELP = 'help';

function focusTakesTyping(): boolean {
  const element = document.activeElement;
  if (!(element instanceof HTMLElement)) return false;
  return takesTyping({
    tagName: element.tagName,
    type: element instanceof HTMLInputElement ? element.type : undefined,
    isContentEditable: element.isContentEditable,
    role: element.getAttribute('role'),
  });
}

/** A modal dialog is open (the palette, a confirmation): the page's shortcuts wait. */
function modalOpen(): boolean {
  return (
    document.querySelector('[role="dialog"][aria-modal="true"], [role="alertdialog"]') !== null
  );
}

/**
 * The page's key handling: Ctrl/Cmd-K for the palette, `?` for the list of
 * shortcuts, and every registered command's shortcut. Single keys and
 * sequences act only when the focus is not in a text field or an editor
 * and no dialog is open; chords (Ctrl/Cmd or Alt) act from a field too.
 */
export function useShortcuts(commands: Command[], handlers: ShortcutHandlers, enabled: boolean) {
  const latest = useRef({ commands, handlers });
  latest.current = { commands, handlers };
  useEffect(() => {
    if (!enabled) return;
    const matcher = new SequenceMatcher();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.repeat) return;
      if (['Shift', 'Control', 'Meta', 'Alt'].includes(event.key)) return;
      const token = tokenOf(event);
      if (token === 'mod+k') {
        event.preventDefault();
        matcher.reset();
        latest.current.handlers.togglePalette();
        return;
      }
      if (modalOpen() || (!isChord(token) && focusTakesTyping())) {
        matcher.reset();
        return;
      }
      const shortcuts = new Map<string, string[]>([[HELP, ['?']]]);
      for (const command of latest.current.commands) {
        if (command.shortcut !== undefined)
          shortcuts.set(command.id, parseShortcut(command.shortcut));
      }
      const result = matcher.press(token, event.timeStamp, shortcuts);
      if (result.pending) event.preventDefault();
      if (result.matched === undefined) return;
      event.preventDefault();
      if (result.matched === HELP) latest.current.handlers.openHelp();
      else latest.current.commands.find((command) => command.id === result.matched)?.run();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
