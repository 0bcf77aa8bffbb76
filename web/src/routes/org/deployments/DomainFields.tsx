import type { Service } from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { useVerifyDomain } from '../../../api/services.js';
import { Button } from '../../../components/Button.js';
import { TextField } from '../../../components/TextField.js';
import { MUTED } from './Section.js';

/** The custom domain, the TXT record that proves it is the owner's, and Verify. */
export function DomainFields(props: {
  service: Service;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const { service } = props;
  const verify = useVerifyDomain({
    orgId: service.orgId,
    deploymentId: service.deploymentId,
    serviceId: service.id,
  });
  const domain = service.customDomain;
  const refusal = verify.error === null ? undefined : refusalOf(verify.error).message;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Custom domain</legend>
      <TextField
        label="Domain"
        value={props.value}
        placeholder="app.example.com"
        hint="Clearing it removes the domain."
        onChange={(event) => props.onChange(event.target.value)}
        error={props.error}
      />
      {domain === null ? null : (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            {domain.name}: <strong>{domain.verified ? 'verified' : 'not verified yet'}</strong>
          </p>
          {domain.verified ? null : (
            <>
              <p className={MUTED}>Create this DNS record, then verify:</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 font-mono text-xs">
                <dt>Type</dt>
                <dd>{domain.challenge.type}</dd>
                <dt>Name</dt>
                <dd className="break-all">{domain.challenge.name}</dd>
                <dt>Value</dt>
                <dd className="break-all">{domain.challenge.value}</dd>
              </dl>
              <Button
                variant="quiet"
                className="self-start"
                disabled={verify.isPending}
                onClick={() => verify.mutate()}
              >
                Verify domain
              </Button>
              {refusal ? (
                <p role="alert" className="text-red-700 dark:text-red-300">
                  {refusal}
                </p>
              ) : null}
            </>
          )}
        </div>
      )}
    </fieldset>
  );
}
