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
export {
  type EventFilters,
  type ReadEventsOptions,
  readEvents,
  type StreamEventsOptions,
  streamEvents,
} from './events.js';
export * from './frames.js';
export {
  type ItemOf,
  type PagedInit,
  type PagedPath,
  type PageOf,
  type Paginated,
  paginate,
} from './paginate.js';
export {
  followImageBuild,
  followJobRun,
  followServiceLogs,
  followWorkerLogs,
  type LiveSocket,
  openServiceShell,
  openTerminal,
  SocketError,
  type TerminalOptions,
  type TerminalSocket,
} from './sockets.js';
export type { WebSocketConstructor, WebSocketLike } from './sockets-types.js';
export { parseSse, type SseMessage } from './sse.js';
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
export {
  type BatchDelivery,
  type EventDelivery,
  SIGNATURE_HEADER,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookDelivery,
  type WebhookRefusal,
  WebhookVerificationError,
} from './webhooks.js';
