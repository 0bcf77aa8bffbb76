import { choicesOf, type Registry } from './choices.js';
import { type Condition, valueShape } from './definition.js';
import {
  isOperator,
  kindOf,
  OPERATOR_LABELS,
  operatorsFor,
  targetFromToken,
  targetsOf,
  targetToken,
} from './operators.js';
import { CONTROL } from './styles.js';
import { ValueInput } from './ValueInput.js';

interface ConditionRowProps {
  condition: Condition;
  /** Names the controls: "condition 2", "condition 1 of group 1". */
  name: string;
  /** The id of the first control, so the editor can move focus to a new condition. */
  controlId: string;
  registry: Registry;
  onChange: (change: Partial<Condition>) => void;
  onRemove: () => void;
}

/** One condition: what it is about, the operator valid there, and the value. */
export function ConditionRow({
  condition,
  name,
  controlId,
  registry,
  onChange,
  onRemove,
}: ConditionRowProps) {
  const kind = kindOf(condition.target, registry.fields);
  return (
    <li className="flex flex-wrap items-center gap-2">
      <select
        id={controlId}
        aria-label={`Field of ${name}`}
        value={targetToken(condition.target)}
        onChange={(event) => {
          const target = targetFromToken(event.target.value);
          if (target !== undefined) onChange({ target });
        }}
        className={CONTROL}
      >
        {targetsOf(registry.fields).map(({ target, label }) => (
          <option key={targetToken(target)} value={targetToken(target)}>
            {label}
          </option>
        ))}
      </select>
      <select
        aria-label={`Operator of ${name}`}
        value={condition.op}
        onChange={(event) => {
          if (isOperator(event.target.value)) onChange({ op: event.target.value });
        }}
        className={CONTROL}
      >
        {operatorsFor(kind).map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op]}
          </option>
        ))}
      </select>
      <ValueInput
        condition={condition}
        shape={valueShape(condition.op, kind)}
        choices={choicesOf(condition.target, registry)}
        label={`Value of ${name}`}
        onChange={(value) => onChange({ value })}
      />
      <button
        type="button"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
        className="rounded px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800"
      >
        ✕
      </button>
    </li>
  );
}
