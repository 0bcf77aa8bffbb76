/** What the socket helpers use of a WebSocket: the browser's, Node 22's global one, or `ws`. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(
    type: 'close',
    listener: (event: { code: number; reason: string }) => void,
  ): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

/**
 * A WebSocket class. The second argument carries the bearer token as a
 * header (`{ headers }`), which `ws` and Node's global WebSocket (undici)
 * accept; a browser sends the `session` cookie instead, and gets no
 * second argument.
 */
export type WebSocketConstructor = new (
  url: string,
  options?: { headers: Record<string, string> },
) => WebSocketLike;
