import { useId } from 'react';
import type { Field, Member } from '../../../../api/items.js';
import { FileEditor } from './FileEditor.js';
import { MultiSelectEditor, SelectEditor } from './OptionEditors.js';
import { MultiPersonEditor, PersonEditor } from './PeopleEditors.js';
import { CheckboxEditor, DateEditor, TypedValueEditor } from './ValueEditors.js';

interface FieldRowProps {
  /** A fixed id for the control (the one a command focuses); else a generated one. */
  controlId?: string | undefined;
  workspaceId: string;
  field: Field;
  value: unknown;
  members: Member[];
  onChange: (value: unknown) => void;
  disabled: boolean;
  canAddOptions: boolean;
  /** The server's refusal of the last change of this property, in words. */
  error: string | undefined;
}

/** A property of the card: its name, the editor of its type, its refusal next to it. */
export function FieldRow(props: FieldRowProps) {
  const generated = useId();
  const id = props.controlId ?? generated;
  const { field } = props;
  const common = {
    field,
    id,
    value: props.value,
    onChange: props.onChange,
    disabled: props.disabled,
  };
  const options = { ...common, workspaceId: props.workspaceId, canAddOptions: props.canAddOptions };
  const editor = (() => {
    switch (field.type) {
      case 'select':
        return <SelectEditor {...options} />;
      case 'multi_select':
        return <MultiSelectEditor {...options} />;
      case 'person':
        return <PersonEditor {...common} members={props.members} />;
      case 'multi_person':
        return <MultiPersonEditor {...common} members={props.members} />;
      case 'date':
        return <DateEditor {...common} />;
      case 'checkbox':
        return <CheckboxEditor {...common} />;
      case 'file':
        return <FileEditor {...common} workspaceId={props.workspaceId} />;
      default:
        return <TypedValueEditor {...common} />;
    }
  })();
  return (
    <div className="grid grid-cols-[minmax(6rem,9rem)_1fr] items-start gap-2 py-1">
      <label htmlFor={id} className="pt-1.5 text-sm text-zinc-700 dark:text-zinc-300">
        {field.name}
      </label>
      <div className="min-w-0">
        {editor}
        {props.error === undefined ? null : (
          <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
            {props.error}
          </p>
        )}
      </div>
    </div>
  );
}
