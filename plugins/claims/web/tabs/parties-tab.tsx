import { useClaimCollection, type Claim } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { SimpleList } from './simple-list.js';

/** claims:parties — everyone involved in the claim: insureds, claimants, witnesses, vendors. */
export function PartiesTab({ claim }: { claim: Claim }) {
  const parties = useClaimCollection(PATHS.parties, claim.id);
  return (
    <SimpleList
      label="Parties"
      query={parties}
      columns={[
        ['Number', (p) => text(p.display_number)],
        ['Name', (p) => text(p.name)],
        ['Phone', (p) => text(p.phone)],
        ['Email', (p) => text(p.email)],
        ['Role', (p) => text(p.role)],
        ['Involved', (p) => (p.is_involved ? 'Yes' : '')],
        ['Approved vendor', (p) => (p.is_approved_vendor ? 'Yes' : '')],
      ]}
    />
  );
}
