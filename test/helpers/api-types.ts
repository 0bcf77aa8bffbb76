import type { components, paths } from '../../packages/client/src/generated/api.js';

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

/** The described paths a concrete path matches that declare this method. */
type Candidates<S extends string, M extends HttpMethod> = {
  [K in keyof paths & string]: SegmentsMatch<Segments<WithoutQuery<S>>, Segments<K>> extends true
    ? [Declared<K, M>] extends [never]
      ? never
      : K
    : never;
}[keyof paths & string];

/** 1 for a literal segment, 0 for a parameter. */
type Shape<Segs extends readonly string[]> = Segs extends [
  infer H extends string,
  ...infer T extends string[],
]
  ? [H extends `{${string}}` ? 0 : 1, ...Shape<T>]
  : [];

/** Whether A is more specific than B: a literal first where the other has a parameter. */
type MoreSpecific<A extends unknown[], B extends unknown[]> = A extends [infer AH, ...infer AT]
  ? B extends [infer BH, ...infer BT]
    ? [AH] extends [BH]
      ? MoreSpecific<AT, BT>
      : AH extends 1
        ? true
        : false
    : false
  : false;

type BeatenBy<K extends string, All extends string> = All extends unknown
  ? MoreSpecific<Shape<Segments<All>>, Shape<Segments<K>>>
  : never;

/** As the router does: `/apps/scopes` reaches `/apps/scopes`, not `/apps/{appId}`. */
type MostSpecific<K extends string, All extends string = K> = K extends unknown
  ? true extends BeatenBy<K, All>
    ? never
    : K
  : never;

/** The operation a concrete path reaches with this method. */
type OperationAt<S extends string, M extends HttpMethod> =
  MostSpecific<Candidates<S, M>> extends infer K
    ? K extends keyof paths
      ? Declared<K, M>
      : never
    : never;

/** The operation under a root: content paths are described once, and served at both roots. */
type OperationUnder<S extends string, M extends HttpMethod, Root extends string> =
  | OperationAt<`${Root}${S}`, M>
  | (Root extends '' ? never : OperationAt<S, M>);

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

type SuccessOf<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : never }[keyof R]
  : never;

type SuccessByStatusOf<O> = O extends { responses: infer R }
  ? { [S in keyof R as S extends 200 | 201 | 202 ? S : never]: JsonOf<R[S]> }
  : never;

/** The Error schema's body. */
export type ErrorEnvelope = components['schemas']['Error'];

/**
 * The body a test reads from a path and method: the operation's success body,
 * and the Error envelope's `error` for the refusals a test provokes (a test
 * reads one or the other, after checking the status). A path the description
 * does not know, or an operation without a JSON success body, gets the
 * envelope alone.
 */
export type BodyAt<S extends string, M extends HttpMethod, Root extends string> = string extends S
  ? ErrorEnvelope
  : Body<OperationUnder<S, M, Root>>;

/** The success body alone, for a helper that returns what it waited for. */
export type SuccessAt<S extends string, M extends HttpMethod, Root extends string> = SuccessOf<
  OperationUnder<S, M, Root>
>;

/** Each success status of the operation with its own body, for an operation with several. */
export type SuccessesAt<
  S extends string,
  M extends HttpMethod,
  Root extends string,
> = string extends S ? Record<never, never> : SuccessByStatusOf<OperationUnder<S, M, Root>>;

type Body<O> = [O] extends [never]
  ? ErrorEnvelope
  : [SuccessOf<O>] extends [never]
    ? ErrorEnvelope
    : SuccessOf<O> & ErrorEnvelope;
