import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { orgsQuery } from '../../api/orgs.js';
import { Switcher } from '../../components/Switcher.js';
import { CREATE_ORG_ANCHOR } from '../workspaces/CreateOrgForm.js';
import { useOrg } from './context.js';

/**
 * The current organization's name, opening a menu of the person's
 * organizations (the current one checked), the home page and the form to
 * create one.
 */
export function OrgSwitcher() {
  const org = useOrg();
  const orgs = useQuery(orgsQuery);
  const navigate = useNavigate();
  return (
    <Switcher
      current={org}
      choices={orgs.data}
      kind="organization"
      heading="Your organizations"
      onPick={(choice) => navigate({ to: '/orgs/$orgId', params: { orgId: choice.id } })}
      actions={[
        { label: 'Home', onSelect: () => navigate({ to: '/' }) },
        {
          label: 'Create an organization',
          onSelect: () => navigate({ to: '/', hash: CREATE_ORG_ANCHOR }),
        },
      ]}
    />
  );
}
