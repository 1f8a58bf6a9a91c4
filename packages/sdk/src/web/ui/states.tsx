import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { isApiRequestError } from '../api-error.js';

/**
 * The three states every list and page shares: loading (a skeleton of the content to come, so a
 * list never says "No claims." while it is still fetching), empty, and failed (with Try again).
 */

type Icon = ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;

/** Placeholder rows while data loads; `aria-busy` lets tests and screen readers wait for it. */
export function LoadingState({
  rows = 3,
  label = 'Loading',
  height = 18,
}: {
  rows?: number;
  label?: string;
  height?: number;
}) {
  return (
    <Stack gap={10} aria-busy="true" aria-label={label} role="status" data-state="loading" py="xs">
      {Array.from({ length: rows }, (_, index) => (
        // The last bar is shorter, like the end of a paragraph.
        <Skeleton key={index} height={height} width={index === rows - 1 && rows > 1 ? '60%' : '100%'} radius="sm" />
      ))}
    </Stack>
  );
}

/** Nothing to show yet: a sentence, optionally an icon and the action that fills the list. */
export function EmptyState({
  title,
  description,
  icon: IconComponent,
  action,
}: {
  title: string;
  description?: ReactNode;
  icon?: Icon;
  action?: ReactNode;
}) {
  return (
    <Stack align="center" gap={6} py="lg" px="md" className="atrium-empty-state" data-state="empty">
      {IconComponent ? (
        <span className="atrium-empty-state-icon">
          <IconComponent size={28} stroke={1.5} aria-hidden />
        </span>
      ) : null}
      <Text fw={600}>{title}</Text>
      {description ? (
        <Text size="sm" c="dimmed" ta="center" maw={480}>
          {description}
        </Text>
      ) : null}
      {action ? <Group mt={6}>{action}</Group> : null}
    </Stack>
  );
}

/** The API's own message when it sent one (it is written for users), else a general sentence. */
export function errorMessage(error: unknown, fallback = 'This could not be loaded.'): string {
  if (isApiRequestError(error)) return error.message || fallback;
  return error instanceof Error && error.message ? error.message : fallback;
}

/** A failed load, in place of the content, with a retry. */
export function ErrorState({
  error,
  title = 'Something went wrong',
  onRetry,
}: {
  error?: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  return (
    <Alert color="red" variant="light" title={title} role="alert" data-state="error">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        {onRetry ? (
          <Button size="xs" variant="default" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The part of a TanStack Query result the state needs (kept structural: the SDK does not import it). */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending?: boolean;
  isLoading?: boolean;
  refetch?: () => unknown;
}

/**
 * Loading → skeleton, error → ErrorState, empty (by `isEmpty`, default an empty array) → EmptyState,
 * else `children(data)`.
 */
export function QueryState<T>({
  query,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  rows,
  children,
}: {
  query: QueryLike<T>;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  rows?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.error && query.data === undefined) {
    return <ErrorState error={query.error} onRetry={query.refetch ? () => void query.refetch?.() : undefined} />;
  }
  if (query.data === undefined || (query.isPending ?? query.isLoading)) return <LoadingState rows={rows} />;
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
