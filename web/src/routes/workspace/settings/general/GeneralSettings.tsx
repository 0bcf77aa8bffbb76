import { useCommands } from '../../../../commands/registry.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { DeleteWorkspace } from './DeleteWorkspace.js';
import { WorkspaceForm } from './WorkspaceForm.js';

/** The workspace's name and cover layout (admins), and its deletion (owners). */
export function GeneralSettings() {
  const workspace = useWorkspace();
  useCommands([
    {
      id: 'workspace.rename',
      label: 'Rename the workspace',
      group: 'Workspace',
      run: () => document.querySelector<HTMLInputElement>('input[name="name"]')?.focus(),
    },
  ]);
  return (
    <div className="flex flex-col gap-8">
      <h2 className="sr-only">General</h2>
      <WorkspaceForm editable={roleAtLeast(workspace.role, 'admin')} />
      <DeleteWorkspace />
    </div>
  );
}
