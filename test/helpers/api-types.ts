import type { paths } from '../types/api.js';

/**
 * Types of the API as the committed description (`openapi.json`) states
 * them, looked up from the path a test calls: `/workspaces/${id}/collections`
 * finds `/workspaces/{workspaceId}/collections`. The generated `paths`
 * come from `npm run openapi`.
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Segments<S extends string> = S extends `${infer Head}/${infer Tail}`
  ? [Head, ...Segments<Tail>]
  : [S];

type SegmentsMatch<A extends readonly string[], B extends readonly string[]> = A extends [
  infer AH extends string,
  ...infer AT extends string[],
]
  ? B extends [infer BH extends string, ...infer BT extends string[]]
    ? (BH extends `{${string}}` ? true : AH extends BH ? true : false) extends true
      ? SegmentsMatch<AT, BT>
      : false
    : false
  : B extends []
    ? true
    : false;

type WithoutQuery<S extends string> = S extends `${infer Path}?${string}` ? Path : S;

type Declared<K extends keyof paths, M extends HttpMethod> =
  paths[K] extends Record<M, infer Op> ? ([Op] extends [undefined] ? never : Op) : never;

/** The operations a concrete path reaches with this method (usually one). */
type OperationAt<S extends string, M extends HttpMethod> = {
  [K in keyof paths & string]: SegmentsMatch<Segments<WithoutQuery<S>>, Segments<K>> extends true
    ? Declared<K, M>
    : never;
}[keyof paths & string];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

type SuccessOf<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : never }[keyof R]
  : never;

/** The Error schema's body. */
export type ErrorEnvelope = JsonOf<
  NonNullable<Declared<'/auth/login', 'post'>>['responses']['4XX']
>;

/**
 * The body a test reads: the success body of the operation, with the
 * Error envelope's `error` for the refusals a test provokes. A path the
 * description does not know (a bare `string`) gets `unknown`.
 */
export type BodyAt<S extends string, M extends HttpMethod, Root extends string> = string extends S
  ? unknown
  : Body<OperationAt<`${Root}${S}`, M> | (Root extends '' ? never : OperationAt<S, M>)>;

type Body<O> = [O] extends [never]
  ? unknown
  : [SuccessOf<O>] extends [never]
    ? Partial<ErrorEnvelope>
    : SuccessOf<O> & Partial<ErrorEnvelope>;
