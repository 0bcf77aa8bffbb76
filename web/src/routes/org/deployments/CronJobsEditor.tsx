import { Button } from '../../../components/Button.js';
import { TextField } from '../../../components/TextField.js';
import { MUTED } from './Section.js';
import type { CronDraft } from './serviceDraft.js';

/**
 * The service's cron jobs (replaced as a whole; [] when all are removed).
 * "Run now" runs a saved job at once (the service must be running).
 */
export function CronJobsEditor(props: {
  jobs: CronDraft[];
  saved: string[];
  onChange: (jobs: CronDraft[]) => void;
  onRunNow: (name: string) => void;
  running: boolean;
  error?: string | undefined;
  runRefusal?: string | undefined;
}) {
  const { jobs, onChange } = props;
  const set = (index: number, job: CronDraft) =>
    onChange(jobs.map((current, at) => (at === index ? job : current)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Cron jobs</legend>
      {jobs.length === 0 ? <p className={MUTED}>No cron job.</p> : null}
      {jobs.map((job, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
        <div key={index} className="flex flex-wrap items-end gap-2">
          <TextField
            label={`Cron job ${index + 1} name`}
            value={job.name}
            onChange={(e) => set(index, { ...job, name: e.target.value })}
          />
          <TextField
            label={`Cron job ${index + 1} schedule`}
            value={job.schedule}
            placeholder="0 3 * * *"
            onChange={(e) => set(index, { ...job, schedule: e.target.value })}
          />
          <TextField
            label={`Cron job ${index + 1} command`}
            value={job.command}
            onChange={(e) => set(index, { ...job, command: e.target.value })}
          />
          {props.saved.includes(job.name) ? (
            <Button
              variant="quiet"
              disabled={props.running}
              onClick={() => props.onRunNow(job.name)}
            >
              Run {job.name} now
            </Button>
          ) : null}
          <Button variant="quiet" onClick={() => onChange(jobs.filter((_, at) => at !== index))}>
            Remove cron job {job.name || index + 1}
          </Button>
        </div>
      ))}
      {props.runRefusal ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {props.runRefusal}
        </p>
      ) : null}
      {props.error ? <p className="text-sm text-red-700 dark:text-red-300">{props.error}</p> : null}
      <Button
        variant="quiet"
        className="self-start"
        onClick={() => onChange([...jobs, { name: '', schedule: '', command: '' }])}
      >
        Add cron job
      </Button>
    </fieldset>
  );
}
