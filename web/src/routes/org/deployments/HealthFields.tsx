import { TextField } from '../../../components/TextField.js';
import type { ServiceDraft } from './serviceDraft.js';

type Health = ServiceDraft['health'];

/** The health check: off, or a path asked with GET and its timings (needs a port). */
export function HealthFields(props: {
  health: Health;
  onChange: (health: Health) => void;
  error?: string | undefined;
}) {
  const { health, onChange } = props;
  const set = (part: Partial<Health>) => onChange({ ...health, ...part });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Health check</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={health.on}
          onChange={(e) => set({ on: e.target.checked })}
        />
        Check health with an HTTP GET (off: the port accepting connections is enough)
      </label>
      {health.on ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <TextField
            label="Health check path"
            value={health.path}
            onChange={(e) => set({ path: e.target.value })}
          />
          <TextField
            label="Interval (seconds)"
            inputMode="numeric"
            value={health.interval}
            onChange={(e) => set({ interval: e.target.value })}
          />
          <TextField
            label="Timeout (seconds)"
            inputMode="numeric"
            value={health.timeout}
            onChange={(e) => set({ timeout: e.target.value })}
          />
          <TextField
            label="Grace (seconds)"
            inputMode="numeric"
            hint="How long a new replica has to answer before the deploy is rolled back."
            value={health.grace}
            onChange={(e) => set({ grace: e.target.value })}
          />
        </div>
      ) : null}
      {props.error ? <p className="text-sm text-red-700 dark:text-red-300">{props.error}</p> : null}
    </fieldset>
  );
}
