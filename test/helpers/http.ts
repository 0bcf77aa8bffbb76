import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { BodyAt, ErrorEnvelope, HttpMethod, SuccessesAt } from './api-types.js';

/** Type-only: the body of each success status, for `withStatus`. */
declare const successes: unique symbol;

export interface Response<B = ErrorEnvelope, Successes = Record<never, never>> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON when the response is JSON, else the text; typed from the committed description. */
  body: B;
  text: string;
  readonly [successes]?: Successes;
}

type Answer<P extends string, M extends HttpMethod, Root extends string> = Promise<
  Response<BodyAt<P, M, Root>, SuccessesAt<P, M, Root>>
>;

/**
 * The answer, checked to have this success status, with the body that
 * status declares: for an operation with several (exec answers 200 with
 * the result, 202 with the background command).
 */
export function withStatus<Successes, S extends keyof Successes & number>(
  response: Response<unknown, Successes>,
  status: S,
): Response<Successes[S] & ErrorEnvelope, Successes> {
  expect(response.status, response.text).toBe(status);
  return response as Response<Successes[S] & ErrorEnvelope, Successes>;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | string[]>;
  cookies?: Record<string, string>;
}

/**
 * A client for one root of the API (`''` or `/api`): each answer's body is
 * typed from the committed description (`packages/client/src/generated/api.ts`), looked up
 * from the path called. Request bodies stay open: tests send malformed ones.
 */
export interface Client<Root extends string = string> {
  get<P extends string>(path: P, options?: RequestOptions): Answer<P, 'get', Root>;
  delete<P extends string>(
    path: P,
    options?: RequestOptions & { body?: unknown },
  ): Answer<P, 'delete', Root>;
  post<P extends string>(
    path: P,
    body?: unknown,
    options?: RequestOptions,
  ): Answer<P, 'post', Root>;
  put<P extends string>(path: P, body?: unknown, options?: RequestOptions): Answer<P, 'put', Root>;
  patch<P extends string>(
    path: P,
    body?: unknown,
    options?: RequestOptions,
  ): Answer<P, 'patch', Root>;
  /** Sends exactly this payload (malformed JSON, form bodies, huge bodies). */
  raw<P extends string, M extends NonNullable<InjectOptions['method']> = 'GET'>(
    options: RawOptions<P, M>,
  ): Answer<P, Lowercase<M> & HttpMethod, Root>;
}

/** `inject` options with the path (under the client's root) and method the answer is typed from. */
export type RawOptions<P extends string, M extends NonNullable<InjectOptions['method']>> = Omit<
  InjectOptions,
  'url' | 'method'
> & { url: P; method?: M };

/** A client for one root of the API over `inject`. */
export function createClient<Root extends string>(app: FastifyInstance, root: Root): Client<Root> {
  async function send<B, Successes>(options: InjectOptions): Promise<Response<B, Successes>> {
    const response = await app.inject(options);
    const type = String(response.headers['content-type'] ?? '');
    const body: unknown =
      type.includes('json') && response.body !== '' ? response.json() : response.body;
    return {
      status: response.statusCode,
      headers: response.headers,
      // The committed description says what the body is; a test that reads a text answer reads `text`.
      body: body as B,
      text: response.body,
    };
  }
  function request<B, Successes>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<Response<B, Successes>> {
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
    return send<B, Successes>(injectOptions);
  }
  return {
    get: (path, options) => request('GET', path, undefined, options),
    delete: (path, options) => request('DELETE', path, options?.body, options),
    post: (path, body, options) => request('POST', path, body ?? {}, options),
    put: (path, body, options) => request('PUT', path, body, options),
    patch: (path, body, options) => request('PATCH', path, body, options),
    raw: (options) => send({ ...options, url: `${root}${options.url}` }),
  };
}
