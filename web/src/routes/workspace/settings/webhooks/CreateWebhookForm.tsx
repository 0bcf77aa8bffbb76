import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { useCreateWebhook } from '../../../../api/webhooks.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { ShownOnce } from '../api-keys/ShownOnce.js';

/** "item.*, field.created" → ["item.*", "field.created"]: commas or spaces separate patterns. */
export function patternsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '');
}

/** Create an endpoint (URL, event-type patterns); its signing secret is shown once. */
export function CreateWebhookForm({ workspaceId }: { workspaceId: string }) {
  const [url, setUrl] = useState('');
  const [patterns, setPatterns] = useState('*');
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<{ url: string; secret: string } | undefined>(undefined);
  const create = useCreateWebhook(workspaceId);
  const refusal = create.isError
    ? refusalOf(create.error, {
        invalid_webhook_url: 'url',
        webhook_url_not_allowed: 'url',
        invalid_url: 'url',
        unknown_event_type: 'eventTypes',
      })
    : undefined;
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const placed = ['url', 'eventTypes', 'description'].includes(refusal?.field ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        url,
        eventTypes: patternsOf(patterns),
        ...(description.trim() === '' ? {} : { description }),
      },
      {
        onSuccess: (endpoint) => {
          setSecret({ url: endpoint.url, secret: endpoint.secret });
          setUrl('');
          setDescription('');
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="create-webhook-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="create-webhook-title" className="text-lg font-semibold">
        Add an endpoint
      </h2>
      {secret === undefined ? null : (
        <ShownOnce
          label={`The signing secret of ${secret.url}`}
          secret={secret.secret}
          onDismiss={() => setSecret(undefined)}
        />
      )}
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="URL"
          type="url"
          value={url}
          placeholder="https://example.com/hooks/sparrow"
          onChange={(event) => setUrl(event.target.value)}
          error={fieldError('url')}
        />
        <TextField
          label="Event types"
          value={patterns}
          hint="Patterns separated by commas: * for every event, a family such as item.*, or a type such as field.created."
          onChange={(event) => setPatterns(event.target.value)}
          error={fieldError('eventTypes')}
        />
        <TextField
          label="Description (optional)"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={fieldError('description')}
        />
        <FormAlert message={refusal !== undefined && !placed ? refusal.message : undefined} />
        <Button type="submit" disabled={create.isPending} className="self-start">
          Add endpoint
        </Button>
      </form>
    </section>
  );
}
