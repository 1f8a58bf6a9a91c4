import { Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { createQuickSearchController, type AnyQuickSearchProvider, type QuickSearchController } from '@atrium/sdk';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';

function QuickSearchBody({ controller }: { controller: QuickSearchController }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  const listId = 'atrium-quick-search-results';
  return (
    <Stack gap="sm">
      <TextInput
        data-autofocus
        aria-label={state.title}
        placeholder={state.placeholder}
        value={state.query}
        onChange={(event) => controller.setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (controller.handleKey(event.key)) {
            event.preventDefault();
            event.stopPropagation();
          }
        }}
        role="combobox"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={state.selectedIndex >= 0 ? `${listId}-${state.selectedIndex}` : undefined}
        rightSection={state.fetching ? <Loader size="xs" role="status" aria-label="Searching" /> : null}
      />
      <Text size="sm" fw={600} c="dimmed">
        {state.header}
      </Text>
      <div role="listbox" id={listId} aria-label={state.header}>
        {state.items.map((item, index) => (
          <UnstyledButton
            key={item.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === state.selectedIndex}
            className="atrium-quick-search-item"
            tabIndex={-1}
            onMouseEnter={() => controller.select(index)}
            onClick={() => controller.open(item)}
          >
            <Text size="sm">{item.title}</Text>
            {item.subtitle ? (
              <Text size="xs" c="dimmed">
                {item.subtitle}
              </Text>
            ) : null}
          </UnstyledButton>
        ))}
      </div>
      {state.emptyMessage ? <Text size="sm">{state.emptyMessage}</Text> : null}
      {state.error ? (
        <Text size="sm" c="red" role="alert">
          {state.error}
        </Text>
      ) : null}
    </Stack>
  );
}

function QuickSearchDialog({ provider, onClose }: { provider: AnyQuickSearchProvider; onClose(): void }) {
  const runtime = useHostRuntime();
  const controller = useMemo(
    () =>
      createQuickSearchController({
        provider,
        recent: runtime.recents,
        api: runtime.services.api,
        onOpen: (item) => {
          onClose();
          runtime.services.navigate(item.to);
        },
      }),
    [provider, runtime, onClose],
  );
  useEffect(() => () => controller.dispose(), [controller]);
  return (
    <Modal opened onClose={onClose} title={controller.getState().title} size="md" yOffset="12vh">
      <QuickSearchBody controller={controller} />
    </Modal>
  );
}

/** One modal for every quick-search provider (`g p`, `g c`, `g n`, or a plugin's command). */
export function QuickSearchModal() {
  const runtime = useHostRuntime();
  const providerId = useRuntimeStore(
    (r) => r.ui,
    (s) => s.quickSearchProviderId,
  );
  const provider = providerId ? runtime.plugins.quickSearchProvider(providerId) : undefined;
  const close = useMemo(() => () => runtime.ui.getState().closeAll(), [runtime]);
  return provider ? <QuickSearchDialog key={provider.id} provider={provider} onClose={close} /> : null;
}
