import { Alert } from '@mantine/core';
import { StatusBadge, useCan } from '@atrium/sdk';
import { inheritanceLabels, versionStatusLabels } from '../lines-labels.js';
import { versionName, type ProductVersion } from '../catalog/lines-api.js';

export { ConfirmButton, ErrorAlert } from '@atrium/sdk';

export function VersionStatusBadge({ status }: { status: string }) {
  return <StatusBadge labels={versionStatusLabels} value={status} />;
}

export function InheritanceBadge({ status }: { status: string | null }) {
  if (!status) return null;
  return <StatusBadge labels={inheritanceLabels} value={status} variant="outline" size="xs" />;
}

/** Only a draft version is editable (spec); this says so where the editors would be. */
export function readOnlyReason(
  version: Pick<ProductVersion, 'status' | 'number' | 'label'> | null | undefined,
): string | null {
  if (!version) return null;
  if (version.status === 'draft') return null;
  return `Version ${versionName(version)} is ${version.status}: only a draft version can be edited. Create a new version to make changes.`;
}

export function ReadOnlyNotice({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <Alert color="gray" variant="light" title="Read-only" my="xs" data-testid="read-only-notice">
      {reason}
    </Alert>
  );
}

/** May the effective role do this write? (false while the answer is pending.) */
export function useCanWrite(resource: string, action: 'create' | 'update' | 'delete' | 'publish') {
  return useCan(resource, action).allowed;
}

export function ServerMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" my="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {message}
    </Alert>
  );
}
