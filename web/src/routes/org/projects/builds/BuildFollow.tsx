import type { ImageBuild } from '../../../../api/image-builds.js';
import { LogView } from '../../../../components/LogView.js';
import { StateBadge } from '../../../../components/StateBadge.js';
import { useBuildLog } from './useBuildLog.js';

const STATUS_WORDS = {
  connecting: 'Connecting to the build log…',
  open: 'Following live.',
  closed: 'The build is over.',
  failed: 'The log connection was lost.',
};

/** One build followed live: its steps (name, state) and its log, until it ends. */
export function BuildFollow({ build }: { build: ImageBuild }) {
  const { build: followed, status } = useBuildLog(build.id);
  return (
    <section
      aria-labelledby="build-follow-title"
      className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700"
    >
      <h3 id="build-follow-title" className="font-medium">
        Build of version {build.projectVersion}
      </h3>
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        {followed.end
          ? `Build ${followed.end.status}${followed.end.error ? `: ${followed.end.error}` : '.'}`
          : STATUS_WORDS[status]}
      </p>
      <ol aria-label="Build steps" className="flex flex-col gap-1">
        {followed.steps.map((step, index) => (
          <li key={step.name} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="w-5 text-right text-zinc-600 dark:text-zinc-400">{index + 1}.</span>
            <span className="font-medium">{step.name}</span>
            <StateBadge state={step.status} />
            {step.message ? (
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{step.message}</span>
            ) : null}
          </li>
        ))}
      </ol>
      <LogView label="Build log" text={followed.log} empty="No output yet." />
    </section>
  );
}
