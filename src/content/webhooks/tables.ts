import type { ColumnType, Generated } from 'kysely';

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  /** Kept in clear: the service signs with it. Shown to people once, at creation or rotation. */
  secret: string;
  /** The secret before the last rotation; it signs too until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  paused_at: Date | null;
  pause_reason: 'manual' | 'failures' | null;
  consecutive_failures: Generated<number>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_type: string;
  /** The event of a single-event delivery; null for a batch. */
  event_id: string | null;
  batch_id: string | null;
  /** The events of a delivery are those of its type (and batch) from first to last id. */
  first_event_id: string;
  last_event_id: string;
  event_count: number;
  tx_id: Generated<number>;
  state: Generated<'pending' | 'succeeded' | 'failed'>;
  attempt_count: Generated<number>;
  attempt_limit: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  completed_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  number: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  succeeded: boolean;
}

declare module '../../db/schema.js' {
  interface DB {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_attempts: WebhookAttemptsTable;
  }
}
