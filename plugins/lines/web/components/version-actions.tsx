import { Button, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { asRecord, num, serverMessage } from '../catalog/api-shared.js';
import { failedKnownAnswerCases, type FailedCase } from '../catalog/known-answer-refusal.js';
import { publishImpact, type PublishImpactEntry } from '../catalog/publish-impact-refusal.js';
import {
  changeVersionStatus,
  createVersion,
  deleteVersion,
  reinstateVersion,
  updateVersion,
  useLinesChanged,
  versionName,
  type Product,
  type ProductVersion,
} from '../catalog/lines-api.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { DateFormModal } from './date-form-modal.js';
import { ConfirmButton, ServerMessage, useCanWrite, VersionStatusBadge } from './shared.js';

/** The usual next statuses when the server does not list them: draft → published → retired. */
export function nextStatuses(version: ProductVersion): string[] {
  if (version.allowedStatuses) return version.allowedStatuses.filter((s) => s !== version.status);
  if (version.status === 'draft') return ['published'];
  if (version.status === 'published') return ['retired'];
  return [];
}

const STATUS_VERBS: Record<string, string> = { published: 'Publish', retired: 'Retire', draft: 'Back to draft' };

/**
 * The selected version's actions: create a version, edit the effective date (drafts), change the
 * status as the server allows, reinstate, delete. A refused change shows the server's message in
 * full (a failed known-answer case lists every difference).
 */
export function VersionActions({
  product,
  version,
  onSelectVersion,
}: {
  product: Product;
  version: ProductVersion;
  onSelectVersion(versionId: number | null): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useLinesChanged();
  const canCreate = useCanWrite(LINES_RESOURCES.version, 'create');
  const canUpdate = useCanWrite(LINES_RESOURCES.version, 'update');
  const canPublish = useCanWrite(LINES_RESOURCES.version, 'publish');
  const canDelete = useCanWrite(LINES_RESOURCES.version, 'delete');
  const [dialog, setDialog] = useState<'create' | 'edit' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [failedCases, setFailedCases] = useState<FailedCase[]>([]);
  const [impact, setImpact] = useState<PublishImpactEntry[]>([]);
  const [busy, setBusy] = useState<string | null>(null);

  async function run(key: string, action: () => Promise<unknown>, success: string) {
    setBusy(key);
    setRefusal(null);
    setFailedCases([]);
    setImpact([]);
    try {
      await action();
      await changed();
      services.showToast({ message: success, kind: 'success' });
    } catch (error) {
      setRefusal(serverMessage(error));
      setFailedCases(failedKnownAnswerCases(error));
      setImpact(publishImpact(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap="xs" aria-label="Version actions">
      <Group gap="xs">
        <Text fw={600}>
          {product.label ?? product.name} · version {versionName(version)}
        </Text>
        <VersionStatusBadge status={version.status} />
        {version.effectiveDate && <Text size="sm">effective {version.effectiveDate}</Text>}
      </Group>
      <Group gap="xs">
        {canCreate && (
          <Button size="xs" variant="light" onClick={() => setDialog('create')}>
            New version
          </Button>
        )}
        {canUpdate && version.status === 'draft' && (
          <Button size="xs" variant="light" onClick={() => setDialog('edit')}>
            Edit effective date
          </Button>
        )}
        {canPublish &&
          nextStatuses(version).map((status) => (
            <Button
              key={status}
              size="xs"
              variant="light"
              loading={busy === status}
              onClick={() =>
                run(
                  status,
                  () => changeVersionStatus(api, product.id, version.id, status),
                  `Version ${versionName(version)} is now ${status}.`,
                )
              }
            >
              {STATUS_VERBS[status] ?? `Set ${status}`}
            </Button>
          ))}
        {canPublish && (version.canReinstate ?? (version.status === 'retired' || version.deleted)) && (
          <Button
            size="xs"
            variant="light"
            loading={busy === 'reinstate'}
            onClick={() =>
              run(
                'reinstate',
                () => reinstateVersion(api, product.id, version.id),
                `Version ${versionName(version)} reinstated.`,
              )
            }
          >
            Reinstate
          </Button>
        )}
        {canDelete && (
          <ConfirmButton
            label="version"
            verb="delete"
            color="red"
            size="xs"
            onConfirm={() =>
              run(
                'delete',
                async () => {
                  await deleteVersion(api, product.id, version.id);
                  onSelectVersion(null);
                },
                `Version ${versionName(version)} deleted.`,
              )
            }
          >
            Delete version
          </ConfirmButton>
        )}
      </Group>
      <ServerMessage message={refusal} />
      {impact.length > 0 && (
        <Stack gap={4} aria-label="Publish impact">
          <List size="sm">
            {impact.map((entry, i) => (
              <List.Item key={i}>
                {entry.source}: {entry.subject} — {entry.message}
              </List.Item>
            ))}
          </List>
          <Group>
            <Button
              size="xs"
              color="orange"
              loading={busy === 'acknowledge'}
              onClick={() =>
                run(
                  'acknowledge',
                  () => changeVersionStatus(api, product.id, version.id, 'published', true),
                  `Version ${versionName(version)} is now published.`,
                )
              }
            >
              I have reviewed the impact — publish anyway
            </Button>
          </Group>
        </Stack>
      )}
      {failedCases.map((c) => (
        <Stack key={c.name} gap={2} aria-label={`Known-answer case ${c.name}`}>
          <Text size="sm" fw={600}>
            {c.name}: expected {c.expected ?? '—'}, got {c.actual ?? '—'}
            {c.error ? ` (${c.error})` : ''}
          </Text>
          <List size="sm">
            {c.differences.map((d, i) => (
              <List.Item key={i}>{d}</List.Item>
            ))}
          </List>
        </Stack>
      ))}
      <DateFormModal
        opened={dialog === 'create'}
        title="New version"
        initial=""
        onClose={() => setDialog(null)}
        onSubmit={async (effectiveDate) => {
          const created = asRecord(await createVersion(api, product.id, { effective_date: effectiveDate }));
          await changed();
          setDialog(null);
          services.showToast({
            message: `Version ${String(created.label ?? created.number ?? created.id ?? '')} created.`,
            kind: 'success',
          });
          onSelectVersion(num(created.id));
        }}
      />
      <DateFormModal
        opened={dialog === 'edit'}
        title="Edit effective date"
        initial={version.effectiveDate ?? ''}
        onClose={() => setDialog(null)}
        onSubmit={async (effectiveDate) => {
          await updateVersion(api, product.id, version.id, { effective_date: effectiveDate });
          await changed();
          setDialog(null);
          services.showToast({ message: `Version ${versionName(version)} saved.`, kind: 'success' });
        }}
      />
    </Stack>
  );
}
