import type { ProjectConfig } from '../../../../api/projects.js';
import { configDiff } from './diff.js';

const LINE = {
  removed:
    'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
  added:
    'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100',
};

/** What restoring `to` would change in the current configuration, field by field. */
export function VersionDiff({ current, to }: { current: ProjectConfig; to: ProjectConfig }) {
  const fields = configDiff(current, to);
  if (fields.length === 0) {
    return <p className="text-sm">Same as the current configuration: restoring changes nothing.</p>;
  }
  return (
    <dl className="flex flex-col gap-3">
      {fields.map((diff) => (
        <div key={diff.field}>
          <dt className="text-sm font-medium">{diff.field}</dt>
          {diff.lines.map((line) => (
            <dd
              key={`${line.change} ${line.text}`}
              className={`mt-1 rounded border-l-4 px-2 py-0.5 font-mono text-sm break-all ${LINE[line.change]}`}
            >
              <span className="font-sans font-semibold">
                {line.change === 'removed' ? '− current: ' : '+ version: '}
              </span>
              {line.text}
            </dd>
          ))}
        </div>
      ))}
    </dl>
  );
}
