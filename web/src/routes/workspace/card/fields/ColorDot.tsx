/** The color of a status or an option, beside its name (decorative: the name says it). */
export function ColorDot({ color }: { color: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-2.5 shrink-0 rounded-full border border-zinc-900/10 dark:border-white/20"
      style={{ backgroundColor: color }}
    />
  );
}
