import { useEffect, useId, useState } from 'react';
import type { Service } from '../../../api/deployments.js';
import { serviceLogTail } from '../../../api/services.js';
import { Button } from '../../../components/Button.js';
import { LogView, useLogText } from '../../../components/LogView.js';
import { bytesOf, useFrames } from '../../../live/useFrames.js';
import { MUTED } from './Section.js';
import { SELECT } from './SourceFields.js';

const TAIL = 200;

/** The replicas' logs, each line prefixed with its replica: the last lines, then followed live. */
export function ServiceLogs({ service }: { service: Service }) {
  const log = useLogText();
  const id = useId();
  const [following, setFollowing] = useState(false);
  const [replicas, setReplicas] = useState<string[]>([]);
  const [replica, setReplica] = useState('');
  const [failure, setFailure] = useState<string | undefined>();
  // Asking again for the last lines (a deploy replaced the replicas since).
  const [asked, setAsked] = useState(0);
  const { reset } = log;
  const path = { orgId: service.orgId, deploymentId: service.deploymentId, serviceId: service.id };
  const { orgId, deploymentId, serviceId } = path;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `asked` reads the tail again on purpose
  useEffect(() => {
    if (following) return;
    setFailure(undefined);
    // An answer that comes after the person started following (or asked again) is dropped.
    let wanted = true;
    serviceLogTail({ orgId, deploymentId, serviceId }, TAIL).then(
      (text) => {
        if (wanted) reset(text);
      },
      (error: unknown) => {
        if (wanted) setFailure(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      wanted = false;
    };
  }, [following, orgId, deploymentId, serviceId, reset, asked]);
  const { state, reconnect } = useFrames(
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
            setReplica('');
            setFollowing(!following);
          }}
        >
          {following ? 'Stop following' : 'Follow live'}
        </Button>
        {following ? null : (
          <Button variant="quiet" onClick={() => setAsked((count) => count + 1)}>
            Refresh logs
          </Button>
        )}
        {following ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-replica`} className="text-sm font-medium">
              Replica
            </label>
            <select
              id={`${id}-replica`}
              className={SELECT}
              value={replica}
              onChange={(event) => {
                // Opened again, so the chosen replica's last lines come first, then its new ones.
                reset();
                setReplica(event.target.value);
                reconnect();
              }}
            >
              <option value="">Every replica</option>
              {replicas.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
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
