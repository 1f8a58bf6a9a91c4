import { useClaimCollection, useLookup, type Claim } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { pluralize } from '../workspace-tabs.js';
import { SimpleList } from './simple-list.js';

/** claims:risks:types — the claim's risks of one risk type group (vehicles, properties …). */
export function RisksTab({ claim, groupName, groupId }: { claim: Claim; groupName: string; groupId: string | null }) {
  const all = useClaimCollection(PATHS.risks, claim.id);
  const types = useLookup(PATHS.riskTypes);
  // A risk belongs to a group through its risk type (risk → risk_type → risk_type_group).
  const inGroup = new Set((types.data ?? []).filter((t) => text(t.risk_type_group_id) === groupId).map((t) => t.id));
  const risks = {
    ...all,
    isPending: all.isPending || types.isPending,
    error: all.error ?? types.error,
    data: all.data && { ...all.data, items: all.data.items.filter((r) => inGroup.has(text(r.risk_type_id))) },
  };
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
