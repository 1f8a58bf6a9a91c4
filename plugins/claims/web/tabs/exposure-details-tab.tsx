import { Alert, Anchor, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '@atrium/sdk';
import type { Claim } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { claimsExposuresRoute } from '../routes.js';
import { useExposures } from './exposures-tab.js';

/** claims:claimants:exposures:details — one exposure; an unknown number says 'Exposure {n} not found.' */
export function ExposureDetailsTab({
  claim,
  claimantNumber,
  exposureNumber,
}: {
  claim: Claim;
  claimantNumber: string;
  exposureNumber: string;
}) {
  const exposures = useExposures(claim.id);
  if (exposures.error) return <ErrorAlert error={exposures.error} />;
  if (exposures.isPending) return <Text>Loading exposure…</Text>;
  const exposure = exposures.data.items.find((e) => text(e.number) === exposureNumber);
  const back = (
    <Anchor component={Link} to={claimsExposuresRoute.link({ claimNumber: claim.number })}>
      All exposures
    </Anchor>
  );
  if (!exposure)
    return (
      <Stack>
        <Alert color="red" role="alert">
          Exposure {exposureNumber} not found.
        </Alert>
        {back}
      </Stack>
    );
  const rows: [string, unknown][] = [
    ['Claimant', claimantNumber],
    ['Status', exposure.status],
    ['Description', exposure.description],
    ['Coverage', exposure.coverage_id],
    ['Adjuster start date', text(exposure.adjuster_start_date).slice(0, 10)],
    ['Deductible applied', exposure.deductible_applied_status],
    ['Deductible override', exposure.deductible_override_amount],
    ['Injury', exposure.is_injury ? 'Yes' : 'No'],
  ];
  return (
    <Stack>
      {back}
      <Title order={4}>
        Exposure {text(exposure.display_number || exposure.number)} {text(exposure.exposure_name)}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="sm">{text(value) || '—'}</Text>
          </div>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
