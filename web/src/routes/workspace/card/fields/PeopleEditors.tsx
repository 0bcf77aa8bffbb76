import { asString, asStrings, CHIP, INPUT, type PeopleProps, SMALL_BUTTON } from './types.js';

/** One member, or nobody. */
export function PersonEditor({ id, value, onChange, disabled, members }: PeopleProps) {
  return (
    <select
      id={id}
      className={INPUT}
      value={asString(value)}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
    >
      <option value="">Nobody</option>
      {members.map((member) => (
        <option key={member.userId} value={member.userId}>
          {member.name}
        </option>
      ))}
    </select>
  );
}

/** Several members: each removable, and a choice to add one. */
export function MultiPersonEditor({ field, id, value, onChange, disabled, members }: PeopleProps) {
  const chosen = asStrings(value);
  const rest = members.filter((member) => !chosen.includes(member.userId));
  const set = (next: string[]) => onChange(next.length === 0 ? null : next);
  return (
    <div className="flex flex-col gap-1">
      <ul aria-label={`${field.name} chosen`} className="flex flex-wrap gap-1">
        {chosen.map((userId) => {
          const name = members.find((member) => member.userId === userId)?.name ?? 'Former member';
          return (
            <li key={userId} className={CHIP}>
              {name}
              {disabled ? null : (
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  aria-label={`Remove ${name} from ${field.name}`}
                  onClick={() => set(chosen.filter((candidate) => candidate !== userId))}
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
        <option value="">{rest.length === 0 ? 'Everyone chosen' : 'Add…'}</option>
        {rest.map((member) => (
          <option key={member.userId} value={member.userId}>
            {member.name}
          </option>
        ))}
      </select>
    </div>
  );
}
