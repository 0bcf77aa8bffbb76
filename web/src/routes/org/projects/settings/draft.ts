import type { Project, UpdateProject } from '../../../../api/projects.js';

export interface RepositoryRow {
  url: string;
  /** Empty: the repository's default branch. */
  branch: string;
}

export interface FeatureRow {
  id: string;
  /** One `name=value` a line; `true` and `false` are booleans. */
  options: string;
}

/** The project's settings as the form edits them (text, so a half-typed value stays as typed). */
export interface Draft {
  name: string;
  description: string;
  repositories: RepositoryRow[];
  features: FeatureRow[];
  extensions: string[];
  forwardPorts: string[];
}

export type DraftField = keyof Draft;

export const FIELDS: readonly DraftField[] = [
  'name',
  'description',
  'repositories',
  'features',
  'extensions',
  'forwardPorts',
];

export const FIELD_LABELS: Record<DraftField, string> = {
  name: 'Name',
  description: 'Description',
  repositories: 'Repositories',
  features: 'Features',
  extensions: 'Extensions',
  forwardPorts: 'Forwarded ports',
};

function optionsText(options: Record<string, string | boolean>): string {
  return Object.entries(options)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join('\n');
}

export function draftOf(project: Project): Draft {
  return {
    name: project.name,
    description: project.description ?? '',
    repositories: project.repositories.map((repo) => ({
      url: repo.url,
      branch: repo.branch ?? '',
    })),
    features: Object.entries(project.features).map(([id, options]) => ({
      id,
      options: optionsText(options),
    })),
    extensions: [...project.extensions],
    forwardPorts: project.forwardPorts.map(String),
  };
}

/** The fields of the draft that differ from the project as saved. */
export function changedFields(project: Project, draft: Draft): DraftField[] {
  const saved = draftOf(project);
  return FIELDS.filter((field) => JSON.stringify(saved[field]) !== JSON.stringify(draft[field]));
}

/** A refusal found before sending, by field. */
export type LocalErrors = Partial<Record<DraftField, string>>;

type Options = Record<string, string | boolean>;

function parseOptions(text: string): Options | undefined {
  const options: Options = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    if (at <= 0) return undefined;
    const value = line.slice(at + 1).trim();
    options[line.slice(0, at).trim()] = value === 'true' ? true : value === 'false' ? false : value;
  }
  return options;
}

/**
 * The PATCH body: only the changed fields. A cleared description is sent
 * as "" (the API stores null); an emptied list is sent as [] (features: {}).
 */
export function patchOf(
  project: Project,
  draft: Draft,
): { body: UpdateProject; errors: LocalErrors } {
  const body: UpdateProject = {};
  const errors: LocalErrors = {};
  for (const field of changedFields(project, draft)) {
    if (field === 'name') {
      if (draft.name.trim() === '') errors.name = 'The name cannot be blank.';
      else body.name = draft.name;
    } else if (field === 'description') {
      body.description = draft.description;
    } else if (field === 'repositories') {
      body.repositories = draft.repositories.map((row) => ({
        url: row.url.trim(),
        branch: row.branch.trim() === '' ? null : row.branch.trim(),
      }));
    } else if (field === 'features') {
      const features: Record<string, Options> = {};
      for (const row of draft.features) {
        const options = parseOptions(row.options);
        if (row.id.trim() === '') errors.features = 'Each feature needs its id.';
        else if (options === undefined)
          errors.features = `Write each option of ${row.id} as name=value, one a line.`;
        else features[row.id.trim()] = options;
      }
      body.features = features;
    } else if (field === 'extensions') {
      body.extensions = draft.extensions.map((id) => id.trim());
    } else {
      if (draft.forwardPorts.some((text) => !/^\d+$/.test(text.trim())))
        errors.forwardPorts = 'Each port is a whole number (1 to 65535).';
      body.forwardPorts = draft.forwardPorts.map((text) => Number(text.trim()));
    }
  }
  return { body, errors };
}
