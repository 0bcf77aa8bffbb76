import type { Event, EventType } from './types.js';

/** The header every delivery is signed in: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export const SIGNATURE_HEADER = 'x-service-signature';

/** A single event delivered (`kind: "event"`). */
export interface EventDelivery {
  kind: 'event';
  deliveryId: string;
  workspaceId: string;
  type: EventType;
  eventIds: string[];
  event: Event;
}

/**
 * The events of one batch (a bulk edit, an import, a cascade) of one type:
 * inlined in `events` under 50, else read at `batch.read.path` (the event
 * list filtered by batch and type, paged with `since`).
 */
export interface BatchDelivery {
  kind: 'batch';
  deliveryId: string;
  workspaceId: string;
  type: EventType;
  batch: {
    batchId: string;
    count: number;
    firstEventId: string;
    lastEventId: string;
    read: { batchId: string; path: string };
  };
  eventIds?: string[];
  events?: Event[];
}

/** The body of a webhook delivery. */
export type WebhookDelivery = EventDelivery | BatchDelivery;

export type WebhookRefusal =
  | 'missing_signature'
  | 'malformed_signature'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'malformed_body';

/** A delivery that is not proven to come from the server with this secret: answer it 400. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** The raw body, exactly as received (a parsed and re-serialized body will not verify). */
  body: string | Uint8Array;
  /** The `X-Service-Signature` header. */
  signature: string | null | undefined;
  /** The endpoint's signing secret (`whsec_...`). */
  secret: string;
  /** How far the signature's time may be from now, in seconds (default 300, as Stripe). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function parseHeader(
  header: string,
): { timestamp: number; digests: Uint8Array<ArrayBuffer>[] } | null {
  let timestamp: number | null = null;
  const digests: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(',')) {
    const equals = part.indexOf('=');
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1') {
      const digest = hexBytes(value);
      if (digest !== null && digest.length === 32) digests.push(digest);
    }
  }
  return timestamp === null || digests.length === 0 ? null : { timestamp, digests };
}

function isDelivery(value: unknown): value is WebhookDelivery {
  return (
    typeof value === 'object' &&
    value !== null &&
    'kind' in value &&
    (value.kind === 'event' || value.kind === 'batch')
  );
}

/**
 * Checks a delivery's signature with Web Crypto (browsers, Node 20+, edge
 * runtimes): the HMAC-SHA256 of `<t>.<raw body>` with the secret must
 * equal a `v1` digest of the header (`crypto.subtle.verify` compares in
 * constant time; during a secret's rotation either digest may match), and
 * `t` must be within `toleranceSeconds` of now, so a captured delivery
 * cannot be replayed later. Returns the parsed body; throws a
 * WebhookVerificationError otherwise.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookDelivery> {
  const { secret, toleranceSeconds = 300, now = new Date() } = options;
  if (!options.signature)
    throw new WebhookVerificationError('missing_signature', 'No X-Service-Signature header');
  const parsed = parseHeader(options.signature);
  if (parsed === null)
    throw new WebhookVerificationError(
      'malformed_signature',
      'X-Service-Signature is not "t=<unix seconds>,v1=<hex>"',
    );
  const age = Math.floor(now.getTime() / 1000) - parsed.timestamp;
  if (Math.abs(age) > toleranceSeconds)
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature is ${age} s old; at most ${toleranceSeconds} s is accepted`,
    );
  const encoder = new TextEncoder();
  const body = typeof options.body === 'string' ? encoder.encode(options.body) : options.body;
  const prefix = encoder.encode(`${parsed.timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  let matched = false;
  for (const digest of parsed.digests) {
    if (await crypto.subtle.verify('HMAC', key, digest, signed)) matched = true;
  }
  if (!matched)
    throw new WebhookVerificationError(
      'signature_mismatch',
      'No signature of the header matches the body with this secret',
    );
  let delivery: unknown;
  try {
    delivery = JSON.parse(new TextDecoder().decode(body));
  } catch {
    delivery = undefined;
  }
  if (!isDelivery(delivery))
    throw new WebhookVerificationError('malformed_body', 'The body is not a webhook delivery');
  return delivery;
}
