import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useId, useRef, useState } from 'react';
import { ConnectionStatus } from './ConnectionStatus.js';
import { KEYS_HINT, terminalKeys } from './keys.js';
import { outputBatcher } from './output-batcher.js';
import { useScreenReaderMode } from './screen-reader.js';
import { type ConnectionState, TerminalSocket } from './terminal-socket.js';

const OPTIONS = {
  fontFamily: "ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', monospace",
  fontSize: 14,
  scrollback: 5000,
  theme: { background: '#09090b', foreground: '#f4f4f5', cursor: '#f4f4f5' },
} as const;

interface TerminalViewProps {
  /** The socket's path and query; the terminal's size (`cols`, `rows`) is added to it. */
  path: string;
  /** What the terminal is ("Terminal of session main"): the name of its region. */
  label: string;
  /** A worker session is kept (attaching again restores it); a service's shell is not. */
  persistent: boolean;
  /** Told of every change of the connection (a page lists sessions again when one ends). */
  onStateChange?: (state: ConnectionState) => void;
}

/**
 * A terminal in the page (xterm.js) attached to a terminal socket of the
 * API: the program's bytes written as they come (xterm decodes UTF-8 across
 * frames), keys and pastes sent back, its size following its box, and the
 * connection's state in words with a way to connect again.
 */
export function TerminalView({ path, label, persistent, onStateChange }: TerminalViewProps) {
  const hintId = useId();
  const box = useRef<HTMLDivElement>(null);
  const terminal = useRef<Terminal | null>(null);
  const [state, setState] = useState<ConnectionState>({ state: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const [screenReader, setScreenReader] = useScreenReaderMode();
  const latestOnStateChange = useRef(onStateChange);
  latestOnStateChange.current = onStateChange;

  // The terminal itself, once: its size follows its box.
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const term = new Terminal(OPTIONS);
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element);
    term.textarea?.setAttribute('aria-describedby', hintId);
    term.attachCustomKeyEventHandler(terminalKeys(term));
    fit.fit();
    term.focus();
    terminal.current = term;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (element.clientWidth > 0 && element.clientHeight > 0) fit.fit();
      });
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      terminal.current = null;
      term.dispose();
    };
  }, [hintId]);

  useEffect(() => {
    if (terminal.current !== null) terminal.current.options.screenReaderMode = screenReader;
  }, [screenReader]);

  // The connection: again on each attempt; closing it detaches (a worker session keeps running).
  useEffect(() => {
    const term = terminal.current;
    if (term === null) return;
    if (attempt > 0) {
      // A session attached again replays its screen and scrollback: start from a blank one.
      if (persistent) term.reset();
      else term.write('\r\n\x1b[2m(a new shell)\x1b[0m\r\n');
      term.focus();
    }
    const separator = path.includes('?') ? '&' : '?';
    const output = outputBatcher((bytes) => term.write(bytes));
    const socket = new TerminalSocket(`${path}${separator}cols=${term.cols}&rows=${term.rows}`, {
      output: (bytes) => output.push(bytes),
      state: (next) => {
        setState(next);
        latestOnStateChange.current?.(next);
      },
    });
    const subscriptions = [
      term.onData((text) => socket.input(text)),
      term.onBinary((data) => socket.binary(data)),
      term.onResize(({ cols, rows }) => socket.resize(cols, rows)),
    ];
    return () => {
      for (const subscription of subscriptions) subscription.dispose();
      socket.close();
      output.dispose();
    };
  }, [path, attempt, persistent]);

  return (
    <section aria-label={label} className="flex min-h-0 flex-1 flex-col gap-2">
      <ConnectionStatus
        state={state}
        persistent={persistent}
        onReconnect={() => setAttempt((count) => count + 1)}
        screenReader={screenReader}
        onScreenReaderChange={setScreenReader}
      />
      <div
        ref={box}
        className="h-[calc(100dvh-17rem)] min-h-64 overflow-hidden rounded-lg bg-zinc-950 p-2"
      />
      <p id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
        {KEYS_HINT}
      </p>
    </section>
  );
}
