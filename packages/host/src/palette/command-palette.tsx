import { Modal } from '@mantine/core';
import { buildPaletteItems, PALETTE_GROUPS, type PaletteItem, type PaletteNavTarget } from '@atrium/sdk';
import { Command } from 'cmdk';
import { useMemo, useState, useSyncExternalStore } from 'react';
import { useHostRuntime, useRuntimeStore, useWhenContext } from '../host-runtime-context.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { createPaletteIndex, paletteResults } from './palette-results.js';

/** Navigation targets: the dashboard and every module link the user may see. */
function usePaletteNavTargets(): PaletteNavTarget[] {
  const main = useVisibleNav('main');
  const agent = useVisibleNav('agent');
  const sub = useVisibleNav('sub');
  return useMemo(
    () => [
      { routeName: 'all-modules', title: 'Dashboard', to: '/', keywords: ['all modules', 'home'] },
      ...[...main, ...agent, ...sub].map(({ entry, href }) => ({
        // Nav ids are unique across plugins; route names may repeat across entries with params.
        routeName: entry.id,
        title: entry.title,
        to: href,
        keywords: [entry.to.name],
      })),
    ],
    [main, agent, sub],
  );
}

function PaletteBody({ onClose }: { onClose(): void }) {
  const runtime = useHostRuntime();
  const [query, setQuery] = useState('');
  const when = useWhenContext();
  const allCommands = useSyncExternalStore(runtime.commands.subscribe, runtime.commands.list, runtime.commands.list);
  const nav = usePaletteNavTargets();
  const items = useMemo(() => {
    void when;
    void allCommands;
    const recent = runtime.plugins
      .quickSearchProviders()
      .map((p) => ({ type: p.type, typePlural: p.typePlural, items: runtime.recents.get(p.type) }));
    return buildPaletteItems({ nav, recent, commands: runtime.commands.listEnabled() });
  }, [runtime, nav, when, allCommands]);
  const index = useMemo(() => createPaletteIndex(items), [items]);
  const groups = useMemo(() => paletteResults(index, query), [index, query]);

  const run = (item: PaletteItem) => {
    onClose();
    if (item.kind === 'command' && item.commandId) {
      runtime.commands
        .executeCommand(item.commandId)
        .catch((error: unknown) => runtime.services.showToast({ message: (error as Error).message, kind: 'error' }));
    } else if (item.to) {
      runtime.services.navigate(item.to);
    }
  };

  return (
    <Command label="Command palette" shouldFilter={false} loop className="atrium-palette">
      <Command.Input
        value={query}
        onValueChange={setQuery}
        placeholder="Type a command, a module or a recent item…"
        autoFocus
      />
      <Command.List>
        <Command.Empty>No results found.</Command.Empty>
        {groups.map((group) => (
          <Command.Group key={group.heading} heading={group.heading}>
            {group.items.map((item) => (
              <Command.Item key={item.value} value={item.value} onSelect={() => run(item)}>
                <span>{item.title}</span>
                {item.subtitle ? <span className="atrium-palette-subtitle">{item.subtitle}</span> : null}
                {item.group === PALETTE_GROUPS.navigation ? <span className="atrium-palette-hint">Go to</span> : null}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command>
  );
}

/** Ctrl/Cmd+K: every command, every visible module, recent items — keyboard only. */
export function CommandPalette() {
  const runtime = useHostRuntime();
  const opened = useRuntimeStore(
    (r) => r.ui,
    (s) => s.paletteOpen,
  );
  const close = () => runtime.ui.getState().closeAll();
  return (
    // The compound form lets the dialog carry a name without showing a title bar.
    <Modal.Root opened={opened} onClose={close} size="lg" yOffset="12vh">
      <Modal.Overlay />
      <Modal.Content aria-label="Command palette">
        <Modal.Body p={0}>{opened ? <PaletteBody onClose={close} /> : null}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
