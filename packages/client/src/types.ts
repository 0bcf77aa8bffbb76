import type { components, operations, paths } from './generated/api.js';

export type { components, operations, paths };

/** A named schema of the API description: `Schema<'ItemDetail'>`, `Schema<'Event'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** An event of a workspace's log, as `GET .../events` and the live stream give it. */
export type Event = Schema<'Event'>;

/** The event types, a closed list published in the description. */
export type EventType = Event['type'];

/** The body of every error answer: `{"error": {"code", "message", "details"}}`. */
export type ErrorBody = Schema<'Error'>['error'];

/** Every error code of the server's catalog (`src/http/error-codes.ts`), as the description lists them. */
export type ErrorCode = ErrorBody['code'];
