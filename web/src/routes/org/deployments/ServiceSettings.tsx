import { type FormEvent, useState } from 'react';
import type { Service } from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { useRunCronJob, useUpdateService } from '../../../api/services.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';
import { AccessFields } from './AccessFields.js';
import { CronJobsEditor } from './CronJobsEditor.js';
import { DomainFields } from './DomainFields.js';
import { EnvEditor } from './EnvEditor.js';
import { HealthFields } from './HealthFields.js';
import { SecretsEditor } from './SecretsEditor.js';
import { MUTED } from './Section.js';
import { SourceFields } from './SourceFields.js';
import { draftOf, patchOf, type ServiceDraft } from './serviceDraft.js';

/** Every setting of a service; Save sends only what changed (listed above the buttons). */
export function ServiceSettings(props: { service: Service; onRun: (runId: string) => void }) {
  const { service } = props;
  const path = { orgId: service.orgId, deploymentId: service.deploymentId, serviceId: service.id };
  const update = useUpdateService(path);
  const runNow = useRunCronJob(path);
  const [draft, setDraft] = useState<ServiceDraft>(() => draftOf(service));
  const set = (part: Partial<ServiceDraft>) => setDraft((current) => ({ ...current, ...part }));
  const body = patchOf(service, draft);
  const changed = Object.keys(body);
  const refusal =
    update.error === null ? undefined : refusalOf(update.error, { invalid_domain: 'customDomain' });
  const on = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(body, { onSuccess: () => set({ secrets: [] }) });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Service settings">
      <TextField
        label="Name"
        value={draft.name}
        onChange={(e) => set({ name: e.target.value })}
        error={on('name')}
      />
      <SourceFields
        orgId={service.orgId}
        source={draft.source}
        onChange={(source) => set({ source })}
        error={on('source')}
      />
      <TextField
        label="Command"
        value={draft.command}
        hint="Run with /bin/sh -c. Empty: the image's own."
        onChange={(e) => set({ command: e.target.value })}
        error={on('command')}
      />
      <div className="grid gap-2 sm:grid-cols-2">
        <TextField
          label="Port"
          inputMode="numeric"
          value={draft.port}
          hint="Empty: no HTTP port."
          onChange={(e) => set({ port: e.target.value })}
          error={on('port')}
        />
        <TextField
          label="Replicas"
          inputMode="numeric"
          value={draft.replicas}
          onChange={(e) => set({ replicas: e.target.value })}
          error={on('replicas')}
        />
      </div>
      <HealthFields
        health={draft.health}
        onChange={(health) => set({ health })}
        error={on('healthCheck')}
      />
      <EnvEditor rows={draft.env} onChange={(env) => set({ env })} error={on('env')} />
      <SecretsEditor
        names={service.secrets.map((secret) => secret.name)}
        changes={draft.secrets}
        onChange={(secrets) => set({ secrets })}
        error={on('secrets')}
      />
      <CronJobsEditor
        jobs={draft.cronJobs}
        saved={service.cronJobs.map((job) => job.name)}
        onChange={(cronJobs) => set({ cronJobs })}
        running={runNow.isPending}
        onRunNow={(name) => runNow.mutate(name, { onSuccess: (run) => props.onRun(run.id) })}
        runRefusal={runNow.error === null ? undefined : refusalOf(runNow.error).message}
        error={on('cronJobs')}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Pre-deploy hook</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={draft.preDeploy.on}
            onChange={(e) => set({ preDeploy: { ...draft.preDeploy, on: e.target.checked } })}
          />
          Run a command in the new version before traffic moves (a migration)
        </label>
        {draft.preDeploy.on ? (
          <div className="grid gap-2 sm:grid-cols-2">
            <TextField
              label="Hook command"
              value={draft.preDeploy.command}
              onChange={(e) => set({ preDeploy: { ...draft.preDeploy, command: e.target.value } })}
            />
            <TextField
              label="Hook timeout (seconds)"
              inputMode="numeric"
              value={draft.preDeploy.timeout}
              onChange={(e) => set({ preDeploy: { ...draft.preDeploy, timeout: e.target.value } })}
            />
          </div>
        ) : null}
        {on('preDeploy') ? (
          <p className="text-sm text-red-700 dark:text-red-300">{on('preDeploy')}</p>
        ) : null}
      </fieldset>
      <AccessFields
        orgId={service.orgId}
        accessControl={draft.accessControl}
        allowlist={draft.allowlist}
        onChange={(access) => set(access)}
        error={on('accessControl') ?? on('allowlist')}
      />
      <DomainFields
        service={service}
        value={draft.customDomain}
        onChange={(customDomain) => set({ customDomain })}
        error={on('customDomain')}
      />
      <p className={MUTED} aria-live="polite">
        {changed.length > 0
          ? `Changed: ${changed.join(', ')}. A running service takes them at its next deploy.`
          : 'No change to save.'}
      </p>
      <FormAlert
        message={refusal !== undefined && refusal.field === undefined ? refusal.message : undefined}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={changed.length === 0 || update.isPending}>
          Save
        </Button>
        <Button
          variant="quiet"
          disabled={changed.length === 0}
          onClick={() => {
            setDraft(draftOf(service));
            update.reset();
          }}
        >
          Discard
        </Button>
      </div>
    </form>
  );
}
