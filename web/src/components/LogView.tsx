import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import stripAnsi from 'strip-ansi';

/** What a log pane keeps: the last 512 KiB of text (older lines scroll away). */
const KEPT_CHARS = 512 * 1024;

/**
 * The text of a followed log: `append` takes bytes (decoded as UTF-8 across
 * chunk boundaries) or text, `reset` starts over (a new follow).
 */
export function useLogText(kept = KEPT_CHARS) {
  const [text, setText] = useState('');
  const decoder = useRef(new TextDecoder());
  const append = useCallback(
    (chunk: Uint8Array | string) => {
      const words =
        typeof chunk === 'string' ? chunk : decoder.current.decode(chunk, { stream: true });
      if (words === '') return;
      setText((previous) => {
        const next = previous + stripAnsi(words);
        return next.length > kept ? next.slice(next.length - kept) : next;
      });
    },
    [kept],
  );
  const reset = useCallback((initial = '') => {
    decoder.current = new TextDecoder();
    setText(stripAnsi(initial));
  }, []);
  return { text, append, reset };
}

/**
 * A log pane: the text in a monospace, scrolling `role="log"` region named
 * by `label`, kept scrolled to its end as text arrives unless the person
 * scrolled up to read (scrolling back to the end follows again).
 */
export function LogView({
  label,
  text,
  empty = 'Nothing yet.',
}: {
  label: string;
  text: string;
  empty?: string;
}) {
  const pane = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the text grows
  useLayoutEffect(() => {
    const element = pane.current;
    if (element !== null && following.current) element.scrollTop = element.scrollHeight;
  }, [text]);
  return (
    <pre
      ref={pane}
      role="log"
      aria-label={label}
      // A scrolling region is reached by keyboard to scroll it.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls; the keyboard must reach it
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 8;
      }}
      className="max-h-96 min-h-24 overflow-auto whitespace-pre-wrap break-all rounded-md border border-zinc-200 bg-zinc-950 p-3 font-mono text-xs text-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700"
    >
      {text === '' ? <span className="text-zinc-400">{empty}</span> : text}
    </pre>
  );
}
