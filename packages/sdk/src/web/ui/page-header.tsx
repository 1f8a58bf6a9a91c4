import { Group, Stack, Text, Title } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';

/**
 * The top of every page: its one h1, an optional line under it, and the page's primary actions on
 * the right (they wrap under the title on narrow screens instead of pushing the page wider).
 */
export function PageHeader({
  title,
  description,
  icon: IconComponent,
  actions,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  icon?: ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" mb="md" className="atrium-page-header">
      <Stack gap={2} miw={0} style={{ flex: '1 1 320px' }}>
        <Group gap={8} wrap="nowrap" miw={0}>
          {IconComponent ? (
            <span className="atrium-page-header-icon">
              <IconComponent size={22} stroke={1.75} aria-hidden />
            </span>
          ) : null}
          <Title order={1} className="atrium-page-title">
            {title}
          </Title>
        </Group>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
        {children}
      </Stack>
      {actions ? (
        <Group gap="xs" wrap="wrap" justify="flex-end">
          {actions}
        </Group>
      ) : null}
    </Group>
  );
}
