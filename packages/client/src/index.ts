export {
  type Connection,
  createSparrowClient,
  type SparrowClient,
  type SparrowClientOptions,
} from './client.js';
export {
  type Answer,
  errorBodyOf,
  isSparrowError,
  SparrowError,
  UNEXPECTED_RESPONSE,
  unwrap,
} from './errors.js';
export type { WebSocketConstructor, WebSocketLike } from './sockets-types.js';
export type {
  components,
  ErrorBody,
  ErrorCode,
  Event,
  EventType,
  operations,
  paths,
  Schema,
} from './types.js';
