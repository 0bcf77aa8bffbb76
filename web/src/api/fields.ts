import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type Field = components['schemas']['Field'];
export type FieldType = Field['type'];
export type CreateField = components['schemas']['CreateField'];
export type UpdateField = components['schemas']['UpdateField'];
export type UpsertFieldOption = components['schemas']['UpsertFieldOption'];
export type FieldOption = NonNullable<Field['config']['options']>[number];

/** Every field type the API has, in the order a person picks from, with its name in words. */
export const FIELD_TYPE_LABELS: Readonly<Record<FieldType, string>> = {
  text: 'Text',
  number: 'Number',
  select: 'Select',
  multi_select: 'Multi-select',
  person: 'Person',
  multi_person: 'People',
  date: 'Date',
  checkbox: 'Checkbox',
  url: 'URL',
  email: 'E-mail',
  file: 'File',
};

export const FIELD_TYPES = Object.keys(FIELD_TYPE_LABELS).filter(isFieldType);

export function isFieldType(value: string): value is FieldType {
  return Object.hasOwn(FIELD_TYPE_LABELS, value);
}

/** Whether values of the type are options of the field (and the field has a color per option). */
export function hasOptions(type: FieldType): boolean {
  return type === 'select' || type === 'multi_select';
}

/**
 * The colors offered for options, each with its name (read by screen readers
 * and shown as the swatch's title). The API takes any `#rrggbb`; a picked
 * palette keeps boards readable in both themes.
 */
export const OPTION_COLORS = [
  { name: 'Gray', value: '#71717a' },
  { name: 'Red', value: '#dc2626' },
  { name: 'Orange', value: '#ea580c' },
  { name: 'Amber', value: '#d97706' },
  { name: 'Green', value: '#16a34a' },
  { name: 'Teal', value: '#0d9488' },
  { name: 'Blue', value: '#2563eb' },
  { name: 'Violet', value: '#7c3aed' },
  { name: 'Pink', value: '#db2777' },
] as const;

/** The palette's name of a color, or the hex value itself for a color set by another client. */
export function colorName(value: string): string {
  const known = OPTION_COLORS.find((color) => color.value.toLowerCase() === value.toLowerCase());
  return known?.name ?? value;
}

/** A key derived from a name (`Due date` → `due_date`), which the person may still edit. */
export function keyFromName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '');
  return words.slice(0, 40);
}

/** The workspace's field registry, in creation order. */
export const fieldsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.fields(workspaceId),
    queryFn: () =>
      unwrap(api.GET('/workspaces/{workspaceId}/fields', { params: { path: { workspaceId } } })),
  });

/** After a change: the field replaced in the registry the screens read. */
function useStoreField(workspaceId: string) {
  const client = useQueryClient();
  return (field: Field) =>
    client.setQueryData(fieldsQuery(workspaceId).queryKey, (fields) => {
      if (fields === undefined) return [field];
      const known = fields.some((candidate) => candidate.id === field.id);
      return known
        ? fields.map((candidate) => (candidate.id === field.id ? field : candidate))
        : [...fields, field];
    });
}

export function useCreateField(workspaceId: string) {
  const store = useStoreField(workspaceId);
  return useMutation({
    mutationFn: (body: CreateField) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/fields', { params: { path: { workspaceId } }, body }),
      ),
    onSuccess: store,
  });
}

export function useUpdateField(workspaceId: string) {
  const store = useStoreField(workspaceId);
  return useMutation({
    mutationFn: ({ fieldId, body }: { fieldId: string; body: UpdateField }) =>
      unwrap(
        api.PATCH('/workspaces/{workspaceId}/fields/{fieldId}', {
          params: { path: { workspaceId, fieldId } },
          body,
        }),
      ),
    onSuccess: store,
  });
}

/** Adds an option at the end (or recolors the option of that label), merged on the server. */
export function useAddOption(workspaceId: string) {
  const store = useStoreField(workspaceId);
  return useMutation({
    mutationFn: ({ fieldId, body }: { fieldId: string; body: UpsertFieldOption }) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/fields/{fieldId}/options', {
          params: { path: { workspaceId, fieldId } },
          body,
        }),
      ),
    onSuccess: store,
  });
}

export function useDeleteField(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fieldId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/fields/{fieldId}', {
          params: { path: { workspaceId, fieldId } },
        }),
      ),
    onSuccess: (_answer, fieldId) => {
      client.setQueryData(fieldsQuery(workspaceId).queryKey, (fields) =>
        fields?.filter((field) => field.id !== fieldId),
      );
      // Lists and cards lose the field too.
      void client.invalidateQueries({ queryKey: keys.workspace(workspaceId) });
    },
  });
}

/** A saved view named by a `field_in_use` refusal. */
export interface ViewUsingField {
  id: string;
  name: string;
  collectionName: string;
}

function isViewUsingField(value: unknown): value is ViewUsingField {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'name' in value &&
    typeof value.name === 'string' &&
    'collectionName' in value &&
    typeof value.collectionName === 'string'
  );
}

/** The views a `field_in_use` refusal names (`details.views`), empty for any other details. */
export function viewsOfRefusal(details: unknown): ViewUsingField[] {
  if (typeof details !== 'object' || details === null || !('views' in details)) return [];
  const views: unknown = details.views;
  return Array.isArray(views) ? views.filter(isViewUsingField) : [];
}

/** "the view “Top” of Roadmap" / "the views “A” of X and “B” of Y", for the refusal in words. */
export function viewsInWords(views: readonly ViewUsingField[]): string {
  const named = views.map((view) => `“${view.name}” of ${view.collectionName}`);
  if (named.length <= 1) return `the view ${named.join('')}`;
  return `the views ${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}
