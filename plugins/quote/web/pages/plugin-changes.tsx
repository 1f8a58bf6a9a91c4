import { Button, Code, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime, useApiClient } from '@atrium/sdk';
import type { FlowRiskType } from '../../shared/flow.js';
import { quoteApi, type QuoteAuditEntry } from '../quote-api.js';

/** How many of a risk's plugin changes are listed (newest first); the rest are counted. */
const SHOWN = 5;

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? 'no answer'
    : typeof value === 'boolean'
      ? value
        ? 'Yes'
        : 'No'
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/**
 * The risk changes third-party plugins made on this risk (issue 22), from the quote's audit: when,
 * which plugin, for whom, each changed answer before and after, and the JSON Patch the plugin sent.
 * Shown under the risk's plugin buttons; nothing when no plugin has changed the risk.
 */
export function PluginChanges({
  quoteNumber,
  riskId,
  type,
}: {
  quoteNumber: string;
  riskId: number;
  type: FlowRiskType;
}) {
  const api = useApiClient();
  // One query per quote, shared by every risk's list; the page's refresh invalidates it.
  const audit = useQuery({
    queryKey: ['quote', quoteNumber, 'audit'],
    queryFn: () => quoteApi(api).audit(quoteNumber),
  });
  const entries = (audit.data?.results ?? []).filter((e) => e.risk_id === riskId && e.plugin);
  if (entries.length === 0) return null;
  const label = (field: string) => type.fields.find((f) => f.name === field)?.label ?? field;
  return (
    <Stack gap={4} aria-label={`Changes by plugins to this ${type.label}`} component="section">
      <Text size="sm" fw={600}>
        Changes by plugins
      </Text>
      {entries.slice(0, SHOWN).map((entry) => (
        <Change key={entry.id} entry={entry} typeLabel={type.label} label={label} />
      ))}
      {entries.length > SHOWN ? (
        <Text size="xs" c="dimmed">
          and {entries.length - SHOWN} earlier
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * Plugin changes of risks no longer on the quote (a plugin's risk whose answers were refused and
 * that was removed again, or a risk a plugin changed that was removed later): listed once, under the
 * quote's first risk, grouped by risk and labelled with the risk type's name, newest first.
 */
export function RemovedRiskChanges({
  quoteNumber,
  presentRiskIds,
  types,
}: {
  quoteNumber: string;
  /** Every risk on the quote now. */
  presentRiskIds: ReadonlySet<number>;
  /** The flow's risk types, for labels. */
  types: readonly FlowRiskType[];
}) {
  const api = useApiClient();
  const audit = useQuery({
    queryKey: ['quote', quoteNumber, 'audit'],
    queryFn: () => quoteApi(api).audit(quoteNumber),
  });
  const entries = (audit.data?.results ?? []).filter((e) => e.plugin && !presentRiskIds.has(e.risk_id));
  if (entries.length === 0) return null;
  const byRisk = new Map<number, QuoteAuditEntry[]>();
  for (const entry of entries) byRisk.set(entry.risk_id, [...(byRisk.get(entry.risk_id) ?? []), entry]);
  return (
    <Stack gap={4} aria-label="Changes by plugins to removed risks" component="section">
      <Text size="sm" fw={600}>
        Removed risks
      </Text>
      {[...byRisk.values()].slice(0, SHOWN).map((changes) => {
        const type = types.find((t) => t.name === changes[0]!.risk_type);
        const typeLabel = type?.label ?? 'Risk';
        const label = (field: string) => type?.fields.find((f) => f.name === field)?.label ?? field;
        return (
          <Stack gap={2} key={changes[0]!.risk_id} pl="sm">
            <Text size="sm" fw={500}>
              {typeLabel} (removed)
            </Text>
            {changes.slice(0, SHOWN).map((entry) => (
              <Change key={entry.id} entry={entry} typeLabel={typeLabel} label={label} />
            ))}
          </Stack>
        );
      })}
      {byRisk.size > SHOWN ? (
        <Text size="xs" c="dimmed">
          and {byRisk.size - SHOWN} earlier removed risks
        </Text>
      ) : null}
    </Stack>
  );
}

function Change({
  entry,
  typeLabel,
  label,
}: {
  entry: QuoteAuditEntry;
  typeLabel: string;
  label: (field: string) => string;
}) {
  const [patchOpen, setPatchOpen] = useState(false);
  const who = `${entry.plugin!.name} for ${entry.username}, ${formatDateTime(entry.created_at)}`;
  const changes = Object.keys(entry.after ?? {}).map(
    (field) => `${label(field)}: ${shown(entry.before?.[field])} → ${shown(entry.after?.[field])}`,
  );
  return (
    <Stack gap={2} data-audit-entry={entry.id}>
      <Text size="sm">
        {entry.action === 'create-risk'
          ? `Added this ${typeLabel}`
          : entry.action === 'remove-risk'
            ? `Removed this ${typeLabel}`
            : changes.length > 0
              ? changes.join('; ')
              : `Changed this ${typeLabel}’s coverages`}
        <Text span size="xs" c="dimmed">
          {' '}
          ({who})
        </Text>
      </Text>
      {entry.patch ? (
        <>
          <Button
            variant="subtle"
            size="compact-xs"
            px={0}
            w="fit-content"
            onClick={() => setPatchOpen((o) => !o)}
            aria-expanded={patchOpen}
          >
            {patchOpen ? 'Hide the plugin’s patch' : 'Show the plugin’s patch'}
          </Button>
          {patchOpen ? <Code block>{JSON.stringify(entry.patch, null, 2)}</Code> : null}
        </>
      ) : null}
    </Stack>
  );
}
