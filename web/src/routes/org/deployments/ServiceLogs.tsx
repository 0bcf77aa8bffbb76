import { useEffect, useState } from 'react';
import type { Service } from '../../../api/deployments.js';
import { serviceLogTail } from '../../../api/services.js';
import { Button } from '../../../components/Button.js';
import { LogView, useLogText } from '../../../components/LogView.js';
import { bytesOf, useFrames } from '../../../live/useFrames.js';
import { MUTED } from './Section.js';

const TAIL = 200;

/** The replicas' logs, each line prefixed with its replica: the last lines, then followed live. */
export function ServiceLogs({ service }: { service: Service }) {
  const log = useLogText();
  const [following, setFollowing] = useState(false);
  const [replicas, setReplicas] = useState<string[]>([]);
  const [replica, setReplica] = useState('');
  const [failure, setFailure] = useState<string | undefined>();
  const { reset } = log;
  const path = { orgId: service.orgId, deploymentId: service.deploymentId, serviceId: service.id };
  const { orgId, deploymentId, serviceId } = path;
  useEffect(() => {
    if (following) return;
    serviceLogTail({ orgId, deploymentId, serviceId }, TAIL).then(
      (text) => reset(text),
      (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
    );
  }, [following, orgId, deploymentId, serviceId, reset]);
  const { state } = useFrames(
    following ? `/api/services/${service.id}/terminal?tail=${TAIL}` : undefined,
    (frame) => {
      if (frame.type === 'ready' && Array.isArray(frame.replicas)) {
        setReplicas(frame.replicas.filter((name): name is string => typeof name === 'string'));
      }
      if (frame.type !== 'output') return;
      if (replica !== '' && frame.replica !== replica) return;
      log.append(bytesOf(frame.data));
    },
  );
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <Button
          variant="quiet"
          onClick={() => {
            reset();
            setFollowing(!following);
          }}
        >
          {following ? 'Stop following' : 'Follow live'}
        </Button>
        {following ? (
          <label className="flex flex-col gap-1 text-sm font-medium">
            Replica
            <select
              className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900"
              value={replica}
              onChange={(event) => {
                reset();
                setReplica(event.target.value);
              }}
            >
              <option value="">Every replica</option>
              {replicas.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span className={MUTED}>
          {following
            ? state.status === 'open'
              ? 'following live'
              : state.status === 'closed'
                ? `stopped (${state.reason || state.code})`
                : 'connecting'
            : `the last ${TAIL} lines of each replica`}
        </span>
      </div>
      {failure === undefined ? null : <p role="alert">{failure}</p>}
      <LogView label="Service logs" text={log.text} empty="No log line yet." />
    </div>
  );
}
