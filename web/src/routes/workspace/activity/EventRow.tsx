import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { formatMoment, type WorkspaceEvent } from '../../../api/events.js';
import { useWorkspace } from '../context.js';
import { describeEvent, type EventNames } from './describe.js';

interface EventRowProps {
  event: WorkspaceEvent;
  names: EventNames;
  /** The card's key when the event is about a card that still exists (to link to it). */
  cardKey: string | undefined;
  /** A link to the event's batch, when it has one and the feed is not showing it already. */
  batchLink: ReactNode;
}

const ACTOR_KINDS = { user: '', api_key: ' (API key)', app: ' (app)' } as const;

/** One event in words: "Ada changed status of the card “Ship it”", when, and how it came. */
export function EventRow({ event, names, cardKey, batchLink }: EventRowProps) {
  const workspace = useWorkspace();
  const sentence = describeEvent(event, names);
  const title = sentence.name === undefined ? null : `“${sentence.name}”`;
  return (
    <li className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:justify-between">
      <p className="text-sm text-zinc-900 dark:text-zinc-100">
        <span className="font-medium">{sentence.actor}</span>
        {ACTOR_KINDS[event.actor.kind]} {sentence.action}
        {sentence.detail !== undefined && event.type.endsWith('.updated') ? (
          <> {sentence.detail} of</>
        ) : null}{' '}
        {sentence.thing}{' '}
        {cardKey !== undefined && title !== null ? (
          <Link
            to="/$workspaceSlug/$cardKey"
            params={{ workspaceSlug: workspace.slug, cardKey }}
            className="font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
          >
            {title}
          </Link>
        ) : (
          <span className="font-medium">{title ?? ''}</span>
        )}
        {sentence.detail !== undefined && !event.type.endsWith('.updated') ? (
          <> {sentence.detail}</>
        ) : null}
      </p>
      <p className="flex shrink-0 items-baseline gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        {event.cause === 'import' ? <span>Import</span> : null}
        {batchLink}
        <time dateTime={event.occurredAt}>{formatMoment(event.occurredAt)}</time>
      </p>
    </li>
  );
}
