import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Service } from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { jobRunsQuery } from '../../../api/job-runs.js';
import { useDeployService, useServiceMove } from '../../../api/services.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { SELECT } from './SourceFields.js';

/** Start, stop, deploy as configured, or deploy again the image of an earlier deploy. */
export function ServiceActions(props: { service: Service; onRun: (runId: string) => void }) {
  const { service } = props;
  const path = { orgId: service.orgId, deploymentId: service.deploymentId, serviceId: service.id };
  const move = useServiceMove(path);
  const deploy = useDeployService(path);
  const id = useId();
  // The newest 50 successful deploys of the service.
  const earlier = useInfiniteQuery(
    jobRunsQuery(service.orgId, service.deploymentId, {
      kind: ['deploy'],
      status: ['succeeded'],
      serviceId: service.id,
    }),
  );
  const [runId, setRunId] = useState('');
  const started = (answer: { runId: string | null }) => {
    if (answer.runId !== null) props.onRun(answer.runId);
  };
  const refusal = [move.error, deploy.error].find((error) => error !== null);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <Button
          onClick={() => deploy.mutate({}, { onSuccess: started })}
          disabled={deploy.isPending}
        >
          Deploy
        </Button>
        <Button
          variant="quiet"
          onClick={() => move.mutate('start', { onSuccess: started })}
          disabled={move.isPending}
        >
          Start
        </Button>
        <Button variant="quiet" onClick={() => move.mutate('stop')} disabled={move.isPending}>
          Stop
        </Button>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-earlier`} className="text-sm font-medium">
            Earlier deploy
          </label>
          <select
            id={`${id}-earlier`}
            className={SELECT}
            value={runId}
            onChange={(e) => setRunId(e.target.value)}
          >
            <option value="">Choose a deploy</option>
            {earlier.data?.pages
              .flatMap((page) => page.runs)
              .map((run) => (
                <option key={run.id} value={run.id}>
                  {new Date(run.createdAt).toLocaleString()} · {run.image ?? 'image unknown'}
                  {run.id === service.activeRunId ? ' (serving)' : ''}
                </option>
              ))}
          </select>
        </div>
        <Button
          variant="quiet"
          disabled={runId === '' || deploy.isPending}
          onClick={() => deploy.mutate({ runId }, { onSuccess: started })}
        >
          Redeploy it
        </Button>
      </div>
      <FormAlert
        message={refusal === undefined || refusal === null ? undefined : refusalOf(refusal).message}
      />
    </div>
  );
}
