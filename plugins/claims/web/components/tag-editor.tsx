import { Badge, Button, Group, MultiSelect, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert, useApiClient, useCan } from '@atrium/sdk';
import { claimsKeys } from '../api/claims-api.js';
import { errorMessageOf, type Flat } from '../api/jsonapi.js';
import { saveTags, selectableTags, tagLabel, useTags, type TagLevel } from '../api/tags-api.js';

/**
 * The tags of a claim or an exposure: badges, and for those who may update the record an editor
 * (a multi-select of the active tags of this level) whose Save replaces the list on the server.
 * Tags the record already has stay selectable even when expired or of another level, so saving
 * never drops one silently; removing it is the user's choice.
 */
export function TagEditor({
  level,
  recordId,
  productId,
  tagIds,
  onSaved,
}: {
  level: TagLevel;
  recordId: string;
  productId?: string | null;
  /** The record's current tag ids (its `tags` relationship). */
  tagIds: string[];
  onSaved(tagIds: string[]): void;
}) {
  const api = useApiClient();
  const tags = useTags();
  const canUpdate = useCan(level === 'claim' ? 'claims:claim' : 'claims:exposure', 'update');
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState<string[]>(tagIds);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const all = tags.data ?? [];
  const byId = new Map(all.map((t) => [t.id, t]));
  const current = tagIds.map((id) => byId.get(id)).filter((t): t is Flat => !!t);
  const options = [
    ...selectableTags(all, level, productId),
    ...current.filter((t) => !selectableTags([t], level, productId).length),
  ].map((t) => ({ value: t.id, label: t.expired ? `${tagLabel(t)} (expired)` : tagLabel(t) }));
  const title = level === 'claim' ? 'Claim tags' : 'Exposure tags';

  if (!editing)
    return (
      <Group gap="xs" aria-label={title} role="group">
        <Text size="sm" c="dimmed">
          Tags:
        </Text>
        {current.length === 0 ? (
          <Text size="sm" c="dimmed">
            none
          </Text>
        ) : (
          current.map((t) => (
            <Badge key={t.id} variant="light" color={t.expired ? 'gray' : 'blue'}>
              {tagLabel(t)}
            </Badge>
          ))
        )}
        {canUpdate.allowed ? (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              setSelected(tagIds);
              setError(null);
              setEditing(true);
            }}
          >
            Edit tags
          </Button>
        ) : null}
      </Group>
    );

  return (
    <Group gap="xs" align="flex-end" role="group" aria-label={title}>
      <MultiSelect
        label={title}
        size="xs"
        miw={280}
        searchable
        clearable
        data={options}
        value={selected}
        onChange={setSelected}
      />
      <Button
        size="xs"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            onSaved(await saveTags(api, level, recordId, selected));
            setEditing(false);
          } catch (e) {
            setError(new Error(errorMessageOf(e)));
          } finally {
            setBusy(false);
          }
        }}
      >
        Save tags
      </Button>
      <Button size="xs" variant="default" onClick={() => setEditing(false)}>
        Cancel
      </Button>
      <ErrorAlert error={error} />
    </Group>
  );
}

/** An exposure's tags; saving refreshes the claim's exposures (where the tags are read from). */
export function ExposureTagEditor({ claim, exposure }: { claim: Flat; exposure: Flat }) {
  const queryClient = useQueryClient();
  return (
    <TagEditor
      level="exposure"
      recordId={exposure.id}
      productId={claim.product_id as string | undefined}
      tagIds={(exposure.tags_ids as string[] | undefined) ?? []}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claim.id) })}
    />
  );
}
