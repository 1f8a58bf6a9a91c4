import { Stack } from '@mantine/core';
import { useState } from 'react';
import type { RiskEditButtonRowContext } from '@atrium/sdk';
import { ButtonRowPlugin } from './button-row-plugin.js';
import { useEnabledPlugins, type EnabledPlugin } from './enabled-plugins.js';

/** The `quote:risk-edit:button-row` contribution: every enabled plugin of the slot, side by side. */
export function ButtonRowSlot({ context }: { context: RiskEditButtonRowContext }) {
  const plugins = useEnabledPlugins('quote:risk-edit:button-row');
  if (!plugins.data?.length) return null;
  return (
    <Stack gap="xs" aria-label="Plugins">
      {plugins.data.map((plugin) => (
        <RetryablePlugin key={plugin.id} plugin={plugin} context={context} />
      ))}
    </Stack>
  );
}

/**
 * A stopped plugin can be tried again: a new key mounts a new iframe and bridge. (A plugin stuck in
 * a loop also stalls the other sandboxed frames of its renderer process; once all of them are
 * removed, Chromium ends that process, so a retry starts clean.)
 */
function RetryablePlugin({ plugin, context }: { plugin: EnabledPlugin; context: RiskEditButtonRowContext }) {
  const [attempt, setAttempt] = useState(0);
  return <ButtonRowPlugin key={attempt} plugin={plugin} context={context} onRetry={() => setAttempt((n) => n + 1)} />;
}
