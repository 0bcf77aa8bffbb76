import type { ProjectConfig } from '../../../../api/projects.js';

/** One line of a field's difference: what restoring would remove or add. */
export interface DiffLine {
  change: 'removed' | 'added';
  text: string;
}

export interface FieldDiff {
  field: string;
  lines: DiffLine[];
}

function repositoryText(repo: ProjectConfig['repositories'][number]): string {
  return repo.branch === null ? repo.url : `${repo.url} (branch ${repo.branch})`;
}

function featureTexts(features: ProjectConfig['features']): string[] {
  return Object.entries(features).map(([id, options]) => {
    const pairs = Object.entries(options).map(([key, value]) => `${key}=${String(value)}`);
    return pairs.length === 0 ? id : `${id} (${pairs.join(', ')})`;
  });
}

/** The items only in `from` (removed) and only in `to` (added), each list in its order. */
function listDiff(from: readonly string[], to: readonly string[]): DiffLine[] {
  return [
    ...from
      .filter((item) => !to.includes(item))
      .map((text) => ({ change: 'removed' as const, text })),
    ...to
      .filter((item) => !from.includes(item))
      .map((text) => ({ change: 'added' as const, text })),
  ];
}

function textDiff(from: string | null, to: string | null): DiffLine[] {
  if (from === to) return [];
  return [
    { change: 'removed', text: from ?? '(none)' },
    { change: 'added', text: to ?? '(none)' },
  ];
}

/** Field by field, what changes from the `from` configuration to the `to` one (empty: the same). */
export function configDiff(from: ProjectConfig, to: ProjectConfig): FieldDiff[] {
  const fields: FieldDiff[] = [
    { field: 'Name', lines: textDiff(from.name, to.name) },
    { field: 'Description', lines: textDiff(from.description, to.description) },
    {
      field: 'Repositories',
      lines: listDiff(from.repositories.map(repositoryText), to.repositories.map(repositoryText)),
    },
    { field: 'Features', lines: listDiff(featureTexts(from.features), featureTexts(to.features)) },
    { field: 'Extensions', lines: listDiff(from.extensions, to.extensions) },
    {
      field: 'Forwarded ports',
      lines: listDiff(from.forwardPorts.map(String), to.forwardPorts.map(String)),
    },
  ];
  return fields.filter((diff) => diff.lines.length > 0);
}
