import { AddOption } from './AddOption.js';
import { ColorDot } from './ColorDot.js';
import { asString, asStrings, CHIP, type EditorProps, INPUT, SMALL_BUTTON } from './types.js';

interface OptionProps extends EditorProps {
  workspaceId: string;
  /** Whether the person may add options to the field (admins). */
  canAddOptions: boolean;
}

/** One option, or none; its color beside the choice. */
export function SelectEditor(props: OptionProps) {
  const { field, id, value, onChange, disabled } = props;
  const options = field.config.options ?? [];
  const chosen = options.find((option) => option.id === asString(value));
  return (
    <div>
      <div className="flex items-center gap-2">
        {chosen === undefined ? null : <ColorDot color={chosen.color} />}
        <select
          id={id}
          className={INPUT}
          value={chosen?.id ?? ''}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">None</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {props.canAddOptions && !disabled ? (
        <AddOption
          workspaceId={props.workspaceId}
          field={field}
          onAdded={(option) => onChange(option)}
        />
      ) : null}
    </div>
  );
}

/** Several options: chips with their colors, each removable, and a choice to add one. */
export function MultiSelectEditor(props: OptionProps) {
  const { field, id, value, onChange, disabled } = props;
  const options = field.config.options ?? [];
  const chosen = asStrings(value);
  const rest = options.filter((option) => !chosen.includes(option.id));
  const set = (next: string[]) => onChange(next.length === 0 ? null : next);
  return (
    <div className="flex flex-col gap-1">
      <ul aria-label={`${field.name} chosen`} className="flex flex-wrap gap-1">
        {chosen.map((optionId) => {
          const option = options.find((candidate) => candidate.id === optionId);
          return (
            <li key={optionId} className={CHIP}>
              <ColorDot color={option?.color ?? '#71717a'} />
              {option?.label ?? 'Removed option'}
              {disabled ? null : (
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  aria-label={`Remove ${option?.label ?? 'option'} from ${field.name}`}
                  onClick={() => set(chosen.filter((candidate) => candidate !== optionId))}
                >
                  ×
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <select
        id={id}
        className={INPUT}
        value=""
        disabled={disabled || rest.length === 0}
        onChange={(event) => event.target.value !== '' && set([...chosen, event.target.value])}
      >
        <option value="">{rest.length === 0 ? 'All chosen' : 'Add…'}</option>
        {rest.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      {props.canAddOptions && !disabled ? (
        <AddOption
          workspaceId={props.workspaceId}
          field={field}
          onAdded={(option) => set([...chosen, option])}
        />
      ) : null}
    </div>
  );
}
