import { INPUT, ListField, RemoveRow, replaced, without } from './ListField.js';

interface StringListEditorProps {
  legend: string;
  hint: string;
  /** The label of one row's input ("Extension 2"). */
  itemLabel: string;
  placeholder: string;
  addLabel: string;
  empty: string;
  items: string[];
  changed: boolean;
  error: string | undefined;
  inputMode?: 'numeric' | 'text';
  onChange: (items: string[]) => void;
}

/** A list of single values (extension ids, ports): a row each, added and removed. */
export function StringListEditor(props: StringListEditorProps) {
  const { items, onChange } = props;
  return (
    <ListField
      legend={props.legend}
      hint={props.hint}
      changed={props.changed}
      error={props.error}
      empty={props.empty}
      count={items.length}
      addLabel={props.addLabel}
      onAdd={() => onChange([...items, ''])}
    >
      {items.map((item, index) => {
        const label = `${props.itemLabel} ${index + 1}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in a list being typed
          <li key={index} className="flex items-center gap-2">
            <input
              aria-label={label}
              className={INPUT}
              value={item}
              inputMode={props.inputMode}
              placeholder={props.placeholder}
              onChange={(event) => onChange(replaced(items, index, event.target.value))}
            />
            <RemoveRow label={`Remove ${label}`} onRemove={() => onChange(without(items, index))} />
          </li>
        );
      })}
    </ListField>
  );
}
