import { useClaimCollection, type Claim } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { SimpleList } from './simple-list.js';

/** claims:injury-summary — shown only when the product has an injury type and the user may read injuries. */
export function InjuriesTab({ claim }: { claim: Claim }) {
  const injuries = useClaimCollection(PATHS.injuries, claim.id);
  return (
    <SimpleList
      label="Injuries"
      query={injuries}
      columns={[
        ['Party', (i) => text(i.party_id)],
        ['Nature', (i) => text(i.injury_nature ?? i.injury_nature_id)],
        ['Body part', (i) => text(i.body_part ?? i.injury_body_part_id)],
        ['Treatment', (i) => text(i.treatment ?? i.treatment_id)],
        ['Description', (i) => text(i.description)],
      ]}
    />
  );
}
