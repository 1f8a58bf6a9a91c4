import { ActivityPanelScope } from '@atrium/sdk';
import { ActionIcon, Alert, Loader, Stack, Text } from '@mantine/core';
import { Suspense, useMemo } from 'react';
import { useHostRuntime, useRuntimeStore, useWhenContext } from '../host-runtime-context.js';
import { lazyPage } from '../routing/lazy-page.js';

/** Activity panels (notes, claim activity, outbound e-mail …) that apply here now. */
export function useActivityPanels() {
  const runtime = useHostRuntime();
  const when = useWhenContext();
  return useMemo(() => {
    void when;
    return runtime.plugins.activityPanels().filter(({ item }) => runtime.context.evaluate(item.when));
  }, [runtime, when]);
}

/** The right sidebar: a strip of panel buttons and the open panel (one at a time). */
export function ActivitySidebar() {
  const runtime = useHostRuntime();
  const panels = useActivityPanels();
  const openPanelId = useRuntimeStore(
    (r) => r.activity,
    (s) => s.openPanelId,
  );
  const warning = useRuntimeStore(
    (r) => r.activity,
    (s) => s.warning,
  );
  const open = panels.find(({ item }) => item.id === openPanelId)?.item;
  const Panel = open ? lazyPage(open.loader) : null;
  return (
    <div className="atrium-activity">
      <Stack gap={4} p={6} className="atrium-activity-strip" aria-label="Activity">
        {panels.map(({ item }) => (
          <ActionIcon
            key={item.id}
            variant={item.id === openPanelId ? 'filled' : 'subtle'}
            aria-label={item.title}
            title={item.title}
            aria-pressed={item.id === openPanelId}
            onClick={() => runtime.activity.getState().toggle(item.id)}
          >
            {typeof item.icon === 'string' ? item.icon : item.title.slice(0, 1)}
          </ActionIcon>
        ))}
      </Stack>
      {open && Panel ? (
        <section className="atrium-activity-panel" aria-label={open.title}>
          <Text fw={600} mb="xs">
            {open.title}
          </Text>
          {warning ? (
            <Alert color="yellow" mb="sm" withCloseButton onClose={() => runtime.activity.getState().dismissWarning()}>
              {warning}
            </Alert>
          ) : null}
          <Suspense fallback={<Loader size="sm" />}>
            {/* Lets the panel's useActivityPanel() know which panel it is. */}
            <ActivityPanelScope panelId={open.id}>
              <Panel />
            </ActivityPanelScope>
          </Suspense>
        </section>
      ) : null}
    </div>
  );
}
