import type { Item } from '../../../../api/item-pages.js';
import type { Field, Member, Status } from '../../../../api/registry.js';
import type { Target } from '../editor/operators.js';

/** What cells look up ids in: fields by id, statuses by id, members by user id. */
export interface Lookups {
  fields: ReadonlyMap<string, Field>;
  statuses: ReadonlyMap<string, Status>;
  members: ReadonlyMap<string, Member>;
}

const CHIP = 'inline-flex max-w-full items-center gap-1 truncate rounded px-1.5 py-0.5 text-xs';
const MUTED = 'text-zinc-500 dark:text-zinc-400';

/** A coloured dot and a name: a status or an option. */
function Swatch({ color, label }: { color: string; label: string }) {
  return (
    <span className={`${CHIP} bg-zinc-100 dark:bg-zinc-800`}>
      <span
        aria-hidden="true"
        className="size-2 shrink-0 rounded-full"
        style={{ backgroundColor: color }}
      />
      <span className="truncate">{label}</span>
    </span>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

function formatDate(value: string): string {
  // A plain date (YYYY-MM-DD) is a calendar day, not midnight UTC shifted to the reader's zone.
  const plain = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(plain ? `${value}T00:00:00` : value);
  if (Number.isNaN(date.getTime())) return value;
  return plain ? dateFormat.format(date) : dateTimeFormat.format(date);
}

function person(id: unknown, lookups: Lookups): string {
  return typeof id === 'string' ? (lookups.members.get(id)?.name ?? 'A former member') : '';
}

function FieldValue({ field, value, lookups }: { field: Field; value: unknown; lookups: Lookups }) {
  if (value === undefined || value === null || value === '') return null;
  const options = field.config.options ?? [];
  const optionOf = (id: unknown) => options.find((option) => option.id === id);
  switch (field.type) {
    case 'select': {
      const option = optionOf(value);
      return option === undefined ? null : <Swatch color={option.color} label={option.label} />;
    }
    case 'multi_select':
      return (
        <span className="flex gap-1 overflow-hidden">
          {(Array.isArray(value) ? value : []).map((id) => {
            const option = optionOf(id);
            return option === undefined ? null : (
              <Swatch key={option.id} color={option.color} label={option.label} />
            );
          })}
        </span>
      );
    case 'person':
      return <span className="truncate">{person(value, lookups)}</span>;
    case 'multi_person':
      return (
        <span className="truncate">
          {(Array.isArray(value) ? value : []).map((id) => person(id, lookups)).join(', ')}
        </span>
      );
    case 'date':
      return <span className="truncate">{formatDate(String(value))}</span>;
    case 'checkbox':
      return (
        <span>
          <span aria-hidden="true">{value === true ? '☑' : '☐'}</span>
          <span className="sr-only">{value === true ? 'Checked' : 'Not checked'}</span>
        </span>
      );
    case 'number':
      return (
        <span className="ml-auto tabular-nums">
          {typeof value === 'number'
            ? value.toLocaleString(undefined, {
                minimumFractionDigits: field.config.decimals ?? 0,
                maximumFractionDigits: field.config.decimals ?? 20,
              })
            : String(value)}
        </span>
      );
    case 'url':
      return (
        <a
          href={String(value)}
          target="_blank"
          rel="noreferrer noopener"
          tabIndex={-1}
          onClick={(event) => event.stopPropagation()}
          className="truncate text-blue-700 underline dark:text-blue-400"
        >
          {String(value)}
        </a>
      );
    case 'file':
      return <span className={MUTED}>File</span>;
    default:
      return <span className="truncate">{String(value)}</span>;
  }
}

/** A card's value in one column, shown by its type. */
export function Cell({ item, target, lookups }: { item: Item; target: Target; lookups: Lookups }) {
  if ('fieldId' in target) {
    const field = lookups.fields.get(target.fieldId);
    if (field === undefined) return null;
    return <FieldValue field={field} value={item.properties[field.key]} lookups={lookups} />;
  }
  switch (target.attribute) {
    case 'statusId': {
      const status = lookups.statuses.get(item.statusId);
      return status === undefined ? null : <Swatch color={status.color} label={status.name} />;
    }
    case 'createdBy':
      return <span className="truncate">{person(item.createdBy, lookups)}</span>;
    case 'createdAt':
      return <span className="truncate">{formatDate(item.createdAt)}</span>;
    case 'updatedAt':
      return <span className="truncate">{formatDate(item.updatedAt)}</span>;
    case 'number':
      return <span className="tabular-nums">{item.number}</span>;
    default:
      return <span className="truncate">{item.title}</span>;
  }
}
