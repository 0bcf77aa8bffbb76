import { Button } from '../../../components/Button.js';
import { TextField } from '../../../components/TextField.js';
import { MUTED } from './Section.js';

export interface EnvRow {
  name: string;
  value: string;
}

export function envRows(env: Record<string, string>): EnvRow[] {
  return Object.entries(env).map(([name, value]) => ({ name, value }));
}

export function envObject(rows: EnvRow[]): Record<string, string> {
  return Object.fromEntries(
    rows.filter((row) => row.name.trim() !== '').map((row) => [row.name, row.value]),
  );
}

/** Whether two variable sets say the same (order aside). */
export function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Environment variables as editable rows; the set is sent as a whole (`{}` when emptied). */
export function EnvEditor(props: {
  rows: EnvRow[];
  onChange: (rows: EnvRow[]) => void;
  error?: string | undefined;
}) {
  const { rows, onChange } = props;
  const set = (index: number, row: EnvRow) =>
    onChange(rows.map((current, at) => (at === index ? row : current)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Environment variables</legend>
      {rows.length === 0 ? <p className={MUTED}>No variable.</p> : null}
      {rows.map((row, index) => (
        // Rows have no identity of their own but their place.
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
        <div key={index} className="flex flex-wrap items-end gap-2">
          <TextField
            label={`Variable ${index + 1} name`}
            value={row.name}
            onChange={(event) => set(index, { ...row, name: event.target.value })}
          />
          <TextField
            label={`Variable ${index + 1} value`}
            value={row.value}
            onChange={(event) => set(index, { ...row, value: event.target.value })}
          />
          <Button
            variant="quiet"
            aria-label={`Remove variable ${row.name || index + 1}`}
            onClick={() => onChange(rows.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      {props.error ? <p className="text-sm text-red-700 dark:text-red-300">{props.error}</p> : null}
      <Button
        variant="quiet"
        className="self-start"
        onClick={() => onChange([...rows, { name: '', value: '' }])}
      >
        Add variable
      </Button>
    </fieldset>
  );
}
