import { useId } from 'react';
import { colorName, OPTION_COLORS } from '../../../../api/fields.js';

/** An option's label on its color: a chip the card, table and board screens can show as is. */
export function OptionChip({ label, color }: { label: string; color: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-zinc-200 px-2 py-0.5 text-xs text-zinc-900 dark:border-zinc-700 dark:text-zinc-100">
      <OptionSwatch color={color} />
      {label}
    </span>
  );
}

/** A dot of the option's color; its name is read by screen readers (`role="img"`). */
export function OptionSwatch({ color }: { color: string }) {
  return (
    <span
      role="img"
      aria-label={colorName(color)}
      title={colorName(color)}
      className="inline-block size-3 shrink-0 rounded-full ring-1 ring-zinc-950/20 dark:ring-white/30"
      style={{ backgroundColor: color }}
    />
  );
}

interface OptionColorPickerProps {
  /** What the colors are for, read as the group's name ("Color of Urgent"). */
  label: string;
  value: string;
  onChange: (color: string) => void;
}

/** The palette as radio buttons: arrow keys move between colors, the chosen one is ringed. */
export function OptionColorPicker({ label, value, onChange }: OptionColorPickerProps) {
  const name = useId();
  return (
    <fieldset className="flex flex-wrap items-center gap-1.5">
      <legend className="sr-only">{label}</legend>
      {OPTION_COLORS.map((color) => (
        <label key={color.value} title={color.name} className="relative inline-flex cursor-pointer">
          <input
            type="radio"
            name={name}
            value={color.value}
            checked={value.toLowerCase() === color.value}
            onChange={() => onChange(color.value)}
            aria-label={color.name}
            className="peer absolute inset-0 cursor-pointer opacity-0"
          />
          <span
            aria-hidden="true"
            className="inline-block size-5 rounded-full ring-1 ring-zinc-950/20 peer-checked:ring-2 peer-checked:ring-zinc-900 peer-checked:ring-offset-2 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-blue-600 dark:ring-white/30 dark:ring-offset-zinc-900 dark:peer-checked:ring-zinc-100"
            style={{ backgroundColor: color.value }}
          />
        </label>
      ))}
    </fieldset>
  );
}
