import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { WebSocketConstructor } from './sockets-types.js';
import type { paths } from './types.js';

export interface SparrowClientOptions {
  /**
   * The server's address, where the content API is served at its own root
   * (`http://localhost:8080`). In a browser on the service's own origin, `''`.
   */
  baseUrl: string;
  /** A session token, an API key (`spk_`) or an app token (`spa_`), sent as a bearer token. */
  token?: string;
  /**
   * `'/api'` when only the `/api` root is reachable (behind a proxy that
   * publishes `/api` alone): content paths (`/workspaces/...`) are then
   * called under `/api`, where the same routes are served. Default `''`.
   */
  contentRoot?: '' | '/api';
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Browsers: `'same-origin'` or `'include'` to send the `session` cookie. */
  credentials?: RequestCredentials;
  /** Another `fetch` (tests, proxies, retries). */
  fetch?: typeof globalThis.fetch;
  /**
   * The WebSocket class for the live sockets: the global one by default
   * (browsers, Node 22+); on Node 20 pass the `ws` package's.
   */
  WebSocket?: WebSocketConstructor;
}

/** How the helpers beyond REST (streams, sockets) reach the server. */
export interface Connection {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly contentRoot: '' | '/api';
  readonly headers: Readonly<Record<string, string>>;
  readonly credentials: RequestCredentials | undefined;
  readonly fetch: typeof globalThis.fetch;
  readonly WebSocket: WebSocketConstructor | undefined;
}

/**
 * The typed client: openapi-fetch over the types generated from the
 * committed `openapi.json` (`GET`, `POST`, ... with typed paths, parameters,
 * bodies and answers), and the connection the other helpers use.
 */
export type SparrowClient = Client<paths> & { readonly connection: Connection };

/** The headers of every request: the caller's, then the bearer token. */
export function requestHeaders(connection: Connection): Record<string, string> {
  const headers: Record<string, string> = { ...connection.headers };
  if (connection.token !== undefined) headers.authorization = `Bearer ${connection.token}`;
  return headers;
}

/** The URL of an API path (content paths under `/api` when the content root says so). */
export function urlOf(connection: Connection, path: string, query?: URLSearchParams): string {
  const rooted =
    connection.contentRoot === '/api' && !path.startsWith('/api/') ? `/api${path}` : path;
  const search = query === undefined || query.size === 0 ? '' : `?${query.toString()}`;
  return `${connection.baseUrl.replace(/\/+$/, '')}${rooted}${search}`;
}

/** Moves content paths under `/api` (the base URL's own path is kept). */
function apiRoot(baseUrl: string): Middleware {
  const prefix = new URL(baseUrl, 'http://base.invalid').pathname.replace(/\/+$/, '');
  return {
    onRequest({ request }) {
      const url = new URL(request.url);
      const path = url.pathname.slice(prefix.length);
      if (path.startsWith('/api/')) return undefined;
      url.pathname = `${prefix}/api${path}`;
      return new Request(url, request);
    },
  };
}

export function createSparrowClient(options: SparrowClientOptions): SparrowClient {
  const connection: Connection = {
    baseUrl: options.baseUrl,
    token: options.token,
    contentRoot: options.contentRoot ?? '',
    headers: options.headers ?? {},
    credentials: options.credentials,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    WebSocket: options.WebSocket,
  };
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: requestHeaders(connection),
    fetch: (request) => connection.fetch(request),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  });
  if (connection.contentRoot === '/api') client.use(apiRoot(options.baseUrl));
  return Object.assign(client, { connection });
}
