const WIDTH = 240;
const HEIGHT = 48;

/**
 * A line of the last values, scaled from 0 to `max` (or the highest value
 * seen), hand drawn in SVG. Hidden from screen readers: the caller says the
 * current value in words.
 */
export function Sparkline({ values, max }: { values: readonly number[]; max?: number }) {
  const top = Math.max(max ?? 0, ...values, 1);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  const points = values
    .map(
      (value, index) =>
        `${(index * step).toFixed(1)},${(HEIGHT - (value / top) * HEIGHT).toFixed(1)}`,
    )
    .join(' ');
  return (
    <svg
      aria-hidden="true"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      className="h-12 w-full rounded bg-zinc-50 text-blue-700 dark:bg-zinc-800 dark:text-blue-300"
    >
      {values.length > 1 ? (
        <polyline
          points={points}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
    </svg>
  );
}
