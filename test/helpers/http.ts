import type { FastifyInstance, InjectOptions } from 'fastify';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON when the response is JSON, else the text. */
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | string[]>;
  cookies?: Record<string, string>;
}

export interface Client {
  get(path: string, options?: RequestOptions): Promise<Response>;
  delete(path: string, options?: RequestOptions & { body?: unknown }): Promise<Response>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  /** Sends exactly this payload (malformed JSON, huge bodies). */
  raw(options: InjectOptions): Promise<Response>;
}

/** A client for one root of the API over `inject` (`''` or `/api`). */
export function createClient(app: FastifyInstance, root: string): Client {
  async function send(options: InjectOptions): Promise<Response> {
    const response = await app.inject(options);
    const type = String(response.headers['content-type'] ?? '');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: type.includes('json') && response.body !== '' ? response.json() : response.body,
      text: response.body,
    };
  }
  function request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    const injectOptions: InjectOptions = {
      method,
      url: `${root}${path}`,
      headers,
      query: options.query,
      cookies: options.cookies,
    };
    if (body !== undefined) injectOptions.payload = body as InjectOptions['payload'];
    return send(injectOptions);
  }
  return {
    get: (path, options) => request('GET', path, undefined, options),
    delete: (path, options) => request('DELETE', path, options?.body, options),
    post: (path, body, options) => request('POST', path, body ?? {}, options),
    put: (path, body, options) => request('PUT', path, body, options),
    patch: (path, body, options) => request('PATCH', path, body, options),
    raw: (options) => send({ ...options, url: `${root}${String(options.url)}` }),
  };
}
