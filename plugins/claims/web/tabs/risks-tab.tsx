import { useClaimCollection, type Claim } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { pluralize } from '../workspace-tabs.js';
import { SimpleList } from './simple-list.js';

/** claims:risks:types — the claim's risks of one risk type group (vehicles, properties …). */
export function RisksTab({ claim, groupName }: { claim: Claim; groupName: string }) {
  const risks = useClaimCollection(PATHS.risks, claim.id, { 'filter[risk_type_group]': groupName });
  return (
    <SimpleList
      label={pluralize(groupName.charAt(0).toUpperCase() + groupName.slice(1))}
      query={risks}
      columns={[
        ['Name', (r) => text(r.name)],
        ['Detail', (r) => text(r.sub_name)],
        ['First party', (r) => (r.is_first_party_risk ? 'Yes' : '')],
        ['Expired', (r) => (r.expired ? 'Yes' : '')],
      ]}
    />
  );
}
