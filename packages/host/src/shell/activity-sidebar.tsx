import { ActivityPanelScope } from '@atrium/sdk';
import { ActionIcon, Alert, Stack, Text } from '@mantine/core';
import { LoadingState } from '@atrium/sdk';
import { Suspense, useMemo } from 'react';
import { useHostRuntime, useRuntimeStore, useWhenContext } from '../host-runtime-context.js';
import { lazyPage } from '../routing/lazy-page.js';
import { NavIcon } from './nav-icon.js';

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
      <Stack
        gap={4}
        p={6}
        className="atrium-activity-strip"
        role="toolbar"
        aria-orientation="vertical"
        aria-label="Activity"
      >
        {panels.map(({ item }) => (
          <ActionIcon
            key={item.id}
            title={item.title}
            size="lg"
            variant={item.id === openPanelId ? 'light' : 'subtle'}
            color={item.id === openPanelId ? undefined : 'gray'}
            aria-label={item.title}
            aria-pressed={item.id === openPanelId}
            onClick={() => runtime.activity.getState().toggle(item.id)}
          >
            <NavIcon icon={item.icon} size={20} />
          </ActionIcon>
        ))}
      </Stack>
      {open && Panel ? (
        <section className="atrium-activity-panel" aria-label={open.title}>
          <Text component="h2" fw={650} fz="md" mb="xs">
            {open.title}
          </Text>
          {warning ? (
            <Alert color="yellow" mb="sm" withCloseButton onClose={() => runtime.activity.getState().dismissWarning()}>
              {warning}
            </Alert>
          ) : null}
          <Suspense fallback={<LoadingState rows={4} label={`Loading ${open.title}`} />}>
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
