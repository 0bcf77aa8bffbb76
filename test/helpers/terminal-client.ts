import type { TerminalSink } from '../../src/agent/terminal-session.js';
import { eventually } from './engine.js';

/**
 * A client of a terminal session: collects the raw bytes it is sent and the
 * exit code it ends with. `waitFor` waits for a text among the bytes (for
 * `waitMs` unless told).
 */
export function terminalClient(waitMs = 20_000) {
  const chunks: Buffer[] = [];
  let exitCode: number | null | undefined;
  const sink: TerminalSink = {
    data: (bytes) => chunks.push(bytes),
    end: (code) => {
      exitCode = code;
    },
  };
  const bytes = () => Buffer.concat(chunks);
  return {
    sink,
    chunks,
    bytes,
    text: () => bytes().toString('utf8'),
    ended: () => exitCode,
    waitFor: (needle: string, timeoutMs = waitMs) =>
      eventually(() => (bytes().includes(needle) ? true : undefined), timeoutMs, needle),
  };
}
