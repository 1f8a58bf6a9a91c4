import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useApiClient } from '@atrium/sdk';
import { updateClaim, type ClaimWithEtag } from '../api/claims-api.js';
import { actionErrorMessageOf, isStale } from '../api/jsonapi.js';
import { useClaimStatusMoves } from '../api/workspace-api.js';
import { STALE_MESSAGE } from './stale-alert.js';

/**
 * Change status: every move the claim may make now (served by `GET claims/statuses/?claim=`, from
 * docs/claims.md's table), with a reason where the move needs one — picked from the move's reason
 * lookups, or typed when it has none. A PATCH with If-Match; the FNOL's draft → open is its Submit.
 */
export function ChangeStatusDialog({
  value,
  onClose,
  onSaved,
  onReload,
}: {
  value: ClaimWithEtag;
  onClose(): void;
  onSaved(next: ClaimWithEtag): void;
  onReload(): void;
}) {
  const { claim, etag } = value;
  const api = useApiClient();
  const moves = useClaimStatusMoves(claim.id, claim.status);
  const [to, setTo] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ to?: string; reason?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const offered = claim.status === 'draft' ? [] : (moves.data ?? []);
  const move = offered.find((m) => m.to_status === to);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!move) found.to = 'This field is required.';
    if (move?.reason_required && !reason.trim()) found.reason = 'This field is required.';
    setErrors(found);
    setFormError(null);
    if (found.to || found.reason) return;
    setBusy(true);
    try {
      onSaved(
        await updateClaim(
          api,
          claim.id,
          etag,
          { status: move!.to_status, status_change_reason: reason.trim() || null },
          { preventForbiddenRedirect: true },
        ),
      );
      onClose();
    } catch (error) {
      setStale(isStale(error));
      setFormError(isStale(error) ? STALE_MESSAGE : actionErrorMessageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Change status of claim ${claim.number}`}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {moves.isPending ? <Text>Loading the allowed moves…</Text> : null}
          {moves.data && offered.length === 0 ? <Text>No status change is allowed from here.</Text> : null}
          {offered.length > 0 ? (
            <Select
              label="New status"
              required
              data={offered.map((m) => ({ value: m.to_status, label: m.action }))}
              value={to}
              onChange={(v) => {
                setTo(v);
                setReason('');
                setErrors({});
              }}
              error={errors.to}
            />
          ) : null}
          {move && move.reasons.length > 0 ? (
            <Select
              label="Reason"
              required={move.reason_required}
              data={move.reasons}
              value={reason || null}
              onChange={(v) => setReason(v ?? '')}
              error={errors.reason}
            />
          ) : null}
          {move && move.reasons.length === 0 && move.reason_required ? (
            <TextInput
              label="Reason"
              required
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={errors.reason}
            />
          ) : null}
          {formError ? (
            <Alert color="red" role="alert">
              {formError}
              {stale ? (
                <Button variant="subtle" size="xs" onClick={onReload}>
                  Reload
                </Button>
              ) : null}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={offered.length === 0}>
              Change status
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
