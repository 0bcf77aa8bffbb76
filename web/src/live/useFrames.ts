import { useCallback, useEffect, useRef, useState } from 'react';

/** A JSON text frame of one of the API's sockets: its `type` and the rest of its fields. */
export interface Frame {
  type: string;
  [field: string]: unknown;
}

/**
 * The socket's state: `connecting`, `open`, or `closed` with the close code
 * and reason the server gave (1000 when a log or run ended; 4xxx with the
 * refusal's code as reason; 1006 when the connection broke).
 */
export type SocketState =
  | { status: 'connecting' }
  | { status: 'open' }
  | { status: 'closed'; code: number; reason: string };

/** The same-origin WebSocket address of an API path (the browser sends the session cookie). */
export function socketUrl(path: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${path}`;
}

function frameOf(data: unknown): Frame | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null || !('type' in parsed)) return undefined;
    return typeof parsed.type === 'string' ? (parsed as Frame) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens one of the API's sockets at `path` (none while `path` is
 * undefined) and hands each JSON frame to `onFrame`, in order. `send`
 * writes a frame while open; `reconnect` opens the socket anew (after a
 * close, or to start over). Closed when the component goes or `path` changes.
 */
export function useFrames(path: string | undefined, onFrame: (frame: Frame) => void) {
  const [state, setState] = useState<SocketState>({ status: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const socket = useRef<WebSocket | null>(null);
  const handler = useRef(onFrame);
  handler.current = onFrame;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reopens the socket on purpose
  useEffect(() => {
    if (path === undefined) return;
    setState({ status: 'connecting' });
    const current = new WebSocket(socketUrl(path));
    socket.current = current;
    current.onopen = () => setState({ status: 'open' });
    current.onmessage = (message) => {
      const frame = frameOf(message.data);
      if (frame !== undefined) handler.current(frame);
    };
    current.onclose = (event) => {
      if (socket.current === current) socket.current = null;
      setState({ status: 'closed', code: event.code, reason: event.reason });
    };
    return () => {
      current.onclose = null;
      current.onmessage = null;
      current.close(1000);
    };
  }, [path, attempt]);

  const send = useCallback((frame: Frame): boolean => {
    const current = socket.current;
    if (current === null || current.readyState !== WebSocket.OPEN) return false;
    current.send(JSON.stringify(frame));
    return true;
  }, []);
  const reconnect = useCallback(() => setAttempt((count) => count + 1), []);
  return { state, send, reconnect };
}

/** The bytes of a frame's base64 `data` (output frames carry raw bytes). */
export function bytesOf(data: unknown): Uint8Array {
  if (typeof data !== 'string') return new Uint8Array();
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
