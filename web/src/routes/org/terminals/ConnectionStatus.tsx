import { Button } from '../../../components/Button.js';
import { StateBadge } from '../../../components/StateBadge.js';
import type { ConnectionState } from './terminal-socket.js';

/** The connection's state as a word, and what happened in a sentence. */
function describe(state: ConnectionState, persistent: boolean): [string, string] {
  switch (state.state) {
    case 'connecting':
      return ['connecting', 'Connecting…'];
    case 'connected':
      return ['connected', 'Connected.'];
    case 'ended': {
      const code = state.exitCode === null ? '' : ` (exit code ${state.exitCode})`;
      return ['ended', `${persistent ? 'The session' : 'The shell'} ended${code}.`];
    }
    case 'detached':
      return [
        'detached',
        `Detached: ${state.reason}.${persistent ? ' The session keeps running.' : ''}`,
      ];
    case 'refused':
      return ['refused', `Could not connect: ${state.reason}.`];
  }
}

interface ConnectionStatusProps {
  state: ConnectionState;
  persistent: boolean;
  onReconnect: () => void;
  screenReader: boolean;
  onScreenReaderChange: (on: boolean) => void;
}

/** Above a terminal: where its connection stands, a way to connect again, screen reader mode. */
export function ConnectionStatus(props: ConnectionStatusProps) {
  const { state, persistent } = props;
  const [word, sentence] = describe(state, persistent);
  const settled = state.state !== 'connecting' && state.state !== 'connected';
  const again =
    state.state === 'ended' ? (persistent ? 'Start again' : 'Open a new shell') : 'Reconnect';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <p role="status" className="flex items-center gap-2 text-sm">
        <StateBadge state={word} />
        <span>{sentence}</span>
      </p>
      {settled ? (
        <Button variant="quiet" className="px-3 py-1" onClick={props.onReconnect}>
          {again}
        </Button>
      ) : null}
      <Button
        variant="quiet"
        className="ml-auto px-3 py-1"
        aria-pressed={props.screenReader}
        onClick={() => props.onScreenReaderChange(!props.screenReader)}
      >
        Screen reader mode
      </Button>
    </div>
  );
}
