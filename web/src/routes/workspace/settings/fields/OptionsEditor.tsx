import { OPTION_COLORS } from '../../../../api/fields.js';
import { Button } from '../../../../components/Button.js';
import { TextField } from '../../../../components/TextField.js';
import { OptionColorPicker } from './OptionColor.js';

export interface DraftOption {
  label: string;
  color: string;
}

/** The next palette color after those used, so new options differ at a glance. */
export function nextColor(used: number): string {
  return OPTION_COLORS[(used + 1) % OPTION_COLORS.length]?.value ?? '#71717a';
}

interface OptionsEditorProps {
  options: DraftOption[];
  onChange: (options: DraftOption[]) => void;
  /** The refusal about the options, in words. */
  error: string | undefined;
}

/** The options of a new select field, each with its label and color, in order. */
export function OptionsEditor({ options, onChange, error }: OptionsEditorProps) {
  const set = (index: number, next: DraftOption) =>
    onChange(options.map((option, at) => (at === index ? next : option)));
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">Options</legend>
      {options.map((option, index) => (
        // Options have no id until they are created: their place is who they are.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <div key={index} className="flex flex-wrap items-end gap-3">
          <TextField
            label={`Option ${index + 1}`}
            value={option.label}
            onChange={(event) => set(index, { ...option, label: event.target.value })}
          />
          <OptionColorPicker
            label={`Color of option ${index + 1}`}
            value={option.color}
            onChange={(color) => set(index, { ...option, color })}
          />
          <Button
            variant="quiet"
            className="px-2 py-1"
            aria-label={`Remove option ${index + 1}`}
            onClick={() => onChange(options.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      {error ? <p className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <Button
        variant="quiet"
        className="self-start"
        onClick={() => onChange([...options, { label: '', color: nextColor(options.length) }])}
      >
        Add an option
      </Button>
    </fieldset>
  );
}
