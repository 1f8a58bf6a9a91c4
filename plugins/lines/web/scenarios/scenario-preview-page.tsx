import { Alert, Stack, Title } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router-dom';
import { ScenarioDetail } from './scenario-detail.js';

/** The scenario preview page: `/lines/products/:productId/scenarios/:scenarioId?version_id=…`. */
export default function ScenarioPreviewPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const productId = Number(params.productId);
  const scenarioId = Number(params.scenarioId);
  const versionId = Number(search.get('version_id'));
  const readOnly = search.get('read_only') === 'true';
  if (!Number.isInteger(productId) || !Number.isInteger(scenarioId) || !Number.isInteger(versionId) || versionId < 1)
    return <Alert color="red">This link names no product, scenario or version.</Alert>;
  return (
    <Stack gap="md">
      <Title order={2}>Scenario preview</Title>
      <ScenarioDetail scope={{ productId, versionId }} scenarioId={scenarioId} readOnly={readOnly} />
    </Stack>
  );
}
