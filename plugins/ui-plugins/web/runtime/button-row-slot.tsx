import { Stack } from '@mantine/core';
import type { RiskEditButtonRowContext } from '@atrium/sdk';
import { ButtonRowPlugin } from './button-row-plugin.js';
import { useEnabledPlugins } from './enabled-plugins.js';

/** The `quote:risk-edit:button-row` contribution: every enabled plugin of the slot, side by side. */
export function ButtonRowSlot({ context }: { context: RiskEditButtonRowContext }) {
  const plugins = useEnabledPlugins('quote:risk-edit:button-row');
  if (!plugins.data?.length) return null;
  return (
    <Stack gap="xs" aria-label="Plugins">
      {plugins.data.map((plugin) => (
        <ButtonRowPlugin key={plugin.id} plugin={plugin} context={context} />
      ))}
    </Stack>
  );
}
