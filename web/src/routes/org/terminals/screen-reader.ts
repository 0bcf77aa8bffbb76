import { useState } from 'react';

const KEY = 'sparrow.terminal.screenReader';

function stored(): boolean {
  try {
    return window.localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/**
 * Whether terminals run xterm's screen reader mode (its output read out and
 * its rows in an accessible tree), remembered in this browser. Off by
 * default: it costs time on large output.
 */
export function useScreenReaderMode(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(stored);
  const change = (next: boolean) => {
    setOn(next);
    try {
      window.localStorage.setItem(KEY, next ? 'on' : 'off');
    } catch {
      // Storage refused (private mode): the choice lasts for this page.
    }
  };
  return [on, change];
}
