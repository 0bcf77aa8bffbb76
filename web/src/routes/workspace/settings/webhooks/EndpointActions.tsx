import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  useDeleteWebhook,
  useEndpointAction,
  type WebhookEndpoint,
} from '../../../../api/webhooks.js';
import { useCommands } from '../../../../commands/registry.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { ShownOnce } from '../api-keys/ShownOnce.js';

interface EndpointActionsProps {
  workspaceId: string;
  workspaceSlug: string;
  endpoint: WebhookEndpoint;
}

/** Pause or resume, rotate the secret (the new one shown once), delete after confirmation. */
export function EndpointActions({ workspaceId, workspaceSlug, endpoint }: EndpointActionsProps) {
  const action = useEndpointAction(workspaceId, endpoint.id);
  const remove = useDeleteWebhook(workspaceId);
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | undefined>(undefined);
  const toggle = () => action.mutate(endpoint.state === 'active' ? 'pause' : 'resume');
  const rotate = () =>
    action.mutate('rotate-secret', {
      onSuccess: (answer) => {
        setSecret(answer.secret);
        setConfirming(undefined);
      },
    });
  useCommands([
    {
      id: 'webhook.toggle',
      label: endpoint.state === 'active' ? 'Webhook: pause' : 'Webhook: resume',
      group: 'Webhook',
      run: toggle,
    },
  ]);
  return (
    <div className="flex flex-col gap-3">
      {secret === undefined ? null : (
        <ShownOnce
          label="The new signing secret"
          secret={secret}
          onDismiss={() => setSecret(undefined)}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="quiet" disabled={action.isPending} onClick={toggle}>
          {endpoint.state === 'active' ? 'Pause' : 'Resume'}
        </Button>
        <Button variant="quiet" onClick={() => setConfirming('rotate')}>
          Rotate secret
        </Button>
        <Button variant="danger" onClick={() => setConfirming('delete')}>
          Delete endpoint
        </Button>
      </div>
      <FormAlert
        message={
          action.isError && confirming === undefined ? refusalOf(action.error).message : undefined
        }
      />
      <ConfirmDialog
        open={confirming === 'rotate'}
        onOpenChange={(open) => setConfirming(open ? 'rotate' : undefined)}
        title="Rotate the signing secret?"
        description="A new secret signs from now on; the current one keeps signing too for 24 hours, so receivers can switch."
        confirmLabel="Rotate secret"
        pending={action.isPending}
        error={action.isError ? refusalOf(action.error).message : undefined}
        onConfirm={rotate}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => setConfirming(open ? 'delete' : undefined)}
        title="Delete this endpoint?"
        description={`Nothing more is sent to ${endpoint.url}, and its deliveries are forgotten. This cannot be undone.`}
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        onConfirm={() =>
          remove.mutate(endpoint.id, {
            onSuccess: () =>
              void navigate({ to: '/$workspaceSlug/settings/webhooks', params: { workspaceSlug } }),
          })
        }
      />
    </div>
  );
}
