import { useId } from 'react';
import type { WorkspaceOverview } from '../../../api/workspace-settings.js';
import { Section } from './Section.js';

const WIDTH = 560;
const HEIGHT = 120;
const GAP = 6;

/** "Nov 29" for a calendar date (read as a date, not shifted by the time zone). */
function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * Events per day over 14 days as bars: an SVG image summed up in words for
 * screen readers, with the numbers in a table one click away.
 */
export function ActivityChart({ days }: { days: WorkspaceOverview['activity'] }) {
  const titleId = useId();
  const total = days.reduce((sum, day) => sum + day.events, 0);
  const highest = Math.max(1, ...days.map((day) => day.events));
  const barWidth = (WIDTH - GAP * (days.length - 1)) / Math.max(1, days.length);
  const summary =
    total === 0
      ? 'No activity in the last 14 days.'
      : `${total.toLocaleString('en')} events in the last 14 days, at most ${highest.toLocaleString('en')} in a day.`;
  return (
    <Section title="Activity, last 14 days">
      <div className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900">
        <p className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">{summary}</p>
        <svg
          role="img"
          aria-labelledby={titleId}
          viewBox={`0 0 ${WIDTH} ${HEIGHT + 18}`}
          className="h-auto w-full text-blue-700 dark:text-blue-400"
        >
          <title id={titleId}>Events per day over the last 14 days. {summary}</title>
          {days.map((day, index) => {
            const height = day.events === 0 ? 2 : Math.max(4, (day.events / highest) * HEIGHT);
            const x = index * (barWidth + GAP);
            return (
              <g key={day.date}>
                <rect
                  x={x}
                  y={HEIGHT - height}
                  width={barWidth}
                  height={height}
                  rx={2}
                  className={day.events === 0 ? 'fill-zinc-300 dark:fill-zinc-700' : 'fill-current'}
                />
                {index % 2 === days.length % 2 ? null : (
                  <text
                    x={x + barWidth / 2}
                    y={HEIGHT + 14}
                    textAnchor="middle"
                    className="fill-zinc-600 text-[10px] dark:fill-zinc-400"
                  >
                    {dayLabel(day.date)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer rounded text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300">
            Show the numbers
          </summary>
          <table className="mt-2 w-full max-w-xs text-left">
            <caption className="sr-only">Events per day, oldest first</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Day
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date} className="border-t border-zinc-200 dark:border-zinc-700">
                  <td className="py-1">{dayLabel(day.date)}</td>
                  <td className="py-1 text-right tabular-nums">{day.events}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </div>
    </Section>
  );
}
