import { Alert, Badge, type MantineColor } from '@mantine/core';
import { useCan } from '@atrium/sdk';
import { versionName, type ProductVersion } from '../catalog/lines-api.js';

export { ConfirmButton, ErrorAlert } from '@atrium/sdk';

const STATUS_COLORS: Record<string, MantineColor> = { draft: 'yellow', published: 'green', retired: 'gray' };

export function VersionStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'blue'} variant="light" size="sm">
      {status}
    </Badge>
  );
}

const INHERITANCE_COLORS: Record<string, MantineColor> = { own: 'blue', overridden: 'orange', inherited: 'gray' };

export function InheritanceBadge({ status }: { status: string | null }) {
  if (!status) return null;
  return (
    <Badge color={INHERITANCE_COLORS[status] ?? 'gray'} variant="outline" size="xs">
      {status}
    </Badge>
  );
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
