import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useCan, useHostServices } from '@atrium/sdk';
import { errorText } from './error-text.js';
import { onScenarioRatingRequest } from './rate-scenario-event.js';
import { useScenarioActions, type Scenario, type ScenarioScope } from './scenarios-api.js';
import { useLatestRating } from './use-latest-rating.js';
import { WorksheetView } from './worksheet-view.js';

/**
 * The rating panel of a scenario: Rate, the premium (term and pro-rata, with the expected premium of a
 * known-answer case beside it) and the worksheet that explains it. Only the latest rating response is
 * applied (useLatestRating). The palette's "Rate scenario" command presses Rate. On a draft, "Record
 * known answer" stores today's rating as the scenario's expected premium (`known-answer/`).
 */
export function RatingPanel({
  scope,
  scenario,
  readOnly = true,
}: {
  scope: ScenarioScope;
  scenario: Scenario;
  readOnly?: boolean;
}) {
  const { rating, error, rating_pending: pending, rate } = useLatestRating(scope, scenario.id);
  const canRecord = useCan('lines:scenario', 'update').allowed && !readOnly;
  const { recordKnownAnswer } = useScenarioActions(scope);
  const services = useHostServices();
  const [recorded, setRecorded] = useState<string | null>(null);
  const [recordError, setRecordError] = useState<unknown>(null);
  // A recorded answer belongs to the scenario it was recorded for.
  useEffect(() => {
    setRecorded(null);
    setRecordError(null);
  }, [scenario.id]);

  async function record() {
    setRecordError(null);
    try {
      const updated = await recordKnownAnswer.mutateAsync(scenario.id);
      setRecorded(updated.expected_premium);
      services.showToast({ message: `Known answer of '${scenario.name}' recorded.`, kind: 'success' });
    } catch (failure) {
      setRecorded(null);
      setRecordError(failure);
    }
  }

  useEffect(() => onScenarioRatingRequest(() => void rate()), [rate]);

  const premium = rating?.premium ?? null;
  const expected = scenario.expected_premium;
  const matches = premium && expected !== null ? Number(premium.term) === Number(expected) : null;
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>Rating</Title>
          <Group gap="xs">
            {pending && (
              <Text size="sm" c="dimmed" role="status">
                Rating…
              </Text>
            )}
            {/* Not disabled while rating: a new click re-rates and the earlier answer is ignored. */}
            <Button onClick={() => void rate()}>Rate</Button>
            {canRecord && (
              <Button variant="light" loading={recordKnownAnswer.isPending} onClick={() => void record()}>
                Record known answer
              </Button>
            )}
          </Group>
        </Group>
        {recorded !== null && (
          <Alert color="green" aria-label="Recorded known answer">
            Recorded as a known-answer case: expected premium {recorded}.
          </Alert>
        )}
        {recordError !== null && (
          <Alert color="red" title="The known answer could not be recorded" style={{ whiteSpace: 'pre-line' }}>
            {errorText(recordError)}
          </Alert>
        )}
        {error !== null && (
          <Alert color="red" title="The scenario could not be rated" style={{ whiteSpace: 'pre-line' }}>
            {errorText(error)}
          </Alert>
        )}
        {!rating && error === null && (
          <Text size="sm" c="dimmed">
            {scenario.premium
              ? `Last rated ${scenario.last_rated_at ?? ''}: term premium ${scenario.premium.term}, pro-rata ${scenario.premium.pro_rata}. Rate to see the worksheet.`
              : 'Not rated yet. Rate to see the premium and the worksheet.'}
          </Text>
        )}
        {premium && (
          <Group gap="xl" aria-label="Premium">
            <Text>
              Term premium <strong aria-label="Term premium">{premium.term}</strong>
            </Text>
            <Text>
              Pro-rata premium <strong aria-label="Pro-rata premium">{premium.pro_rata}</strong>
            </Text>
            {premium.fully_earned !== undefined && <Text size="sm">Fully earned {premium.fully_earned}</Text>}
            {premium.return !== undefined && <Text size="sm">Return {premium.return}</Text>}
            {expected !== null && (
              <Text size="sm" c={matches ? 'green' : 'red'}>
                Expected {expected}: {matches ? 'matches' : 'differs'}
              </Text>
            )}
          </Group>
        )}
        {rating && <WorksheetView worksheet={rating.worksheet} />}
      </Stack>
    </Paper>
  );
}
