import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { workspacesQuery } from '../../../api/workspaces.js';
import { Switcher } from '../../../components/Switcher.js';
import { CREATE_WORKSPACE_ANCHOR } from '../../workspaces/CreateWorkspaceForm.js';
import { useWorkspace } from '../context.js';

/**
 * The current workspace's name, opening a menu of the person's workspaces
 * (the current one checked), the list of all of them and the form to create one.
 */
export function WorkspaceSwitcher() {
  const workspace = useWorkspace();
  const workspaces = useQuery(workspacesQuery);
  const navigate = useNavigate();
  return (
    <Switcher
      current={workspace}
      choices={workspaces.data}
      kind="workspace"
      heading="Your workspaces"
      onPick={(choice) =>
        navigate({ to: '/$workspaceSlug', params: { workspaceSlug: choice.slug } })
      }
      actions={[
        { label: 'All workspaces', onSelect: () => navigate({ to: '/' }) },
        {
          label: 'Create a workspace',
          onSelect: () => navigate({ to: '/', hash: CREATE_WORKSPACE_ANCHOR }),
        },
      ]}
    />
  );
}
