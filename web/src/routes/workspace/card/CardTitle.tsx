/** The card's title, edited in place (Enter leaves it; a title has no line breaks). */
export function CardTitle({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (title: string) => void;
  disabled: boolean;
}) {
  return (
    <textarea
      aria-label="Title"
      rows={1}
      className="field-sizing-content w-full resize-none rounded-md border border-transparent bg-transparent px-1 py-0.5 text-xl font-semibold text-zinc-900 hover:border-zinc-300 focus-visible:border-zinc-300 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-100 dark:hover:border-zinc-700 dark:focus-visible:outline-blue-400"
      value={value}
      readOnly={disabled}
      onChange={(event) => onChange(event.target.value.replace(/\n/g, ' '))}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          event.currentTarget.blur();
        }
      }}
    />
  );
}
