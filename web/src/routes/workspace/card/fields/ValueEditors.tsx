import { useEffect, useState } from 'react';
import { asString, type EditorProps, INPUT } from './types.js';

/**
 * Text, number, URL and email: typed freely, sent on Enter or when the
 * control is left (a value unchanged is not sent). Empty removes it.
 */
export function TypedValueEditor({ field, id, value, onChange, disabled }: EditorProps) {
  const shown = asString(value);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const commit = () => {
    if (text === shown) return;
    if (text.trim() === '') return onChange(null);
    onChange(field.type === 'number' ? Number(text) : text.trim());
  };
  const type =
    field.type === 'url' || field.type === 'email' || field.type === 'number' ? field.type : 'text';
  const decimals = field.config.decimals;
  return (
    <input
      id={id}
      type={type}
      step={type === 'number' ? (decimals === undefined ? 'any' : 10 ** -decimals) : undefined}
      inputMode={type === 'number' ? 'decimal' : undefined}
      className={INPUT}
      value={text}
      disabled={disabled}
      onChange={(event) => setText(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
        if (event.key === 'Escape') setText(shown);
      }}
    />
  );
}

/** A date (or a date and time when the field says so), sent as soon as it is picked. */
export function DateEditor({ field, id, value, onChange, disabled }: EditorProps) {
  const withTime = field.config.includeTime === true;
  const raw = asString(value);
  const shown = withTime ? raw.slice(0, 16) : raw.slice(0, 10);
  return (
    <input
      id={id}
      type={withTime ? 'datetime-local' : 'date'}
      className={INPUT}
      value={shown}
      disabled={disabled}
      onChange={(event) => {
        const next = event.target.value;
        if (next === '') return onChange(null);
        onChange(withTime ? new Date(next).toISOString() : next);
      }}
    />
  );
}

export function CheckboxEditor({ id, value, onChange, disabled }: EditorProps) {
  return (
    <input
      id={id}
      type="checkbox"
      className="size-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
      checked={value === true}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}
