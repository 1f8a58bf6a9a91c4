import { Kbd, Loader, Modal } from '@mantine/core';
import {
  createApiClient,
  PALETTE_SOURCE_LOAD_MS,
  useRouteLookup,
  type AnyQuickSearchProvider,
  type NavIcon,
} from '@atrium/sdk';
import IconPuzzle from '@tabler/icons-react/icons/IconPuzzle';
import IconFileSearch from '@tabler/icons-react/icons/IconFileSearch';
import IconHistory from '@tabler/icons-react/icons/IconHistory';
import IconLayoutGrid from '@tabler/icons-react/icons/IconLayoutGrid';
import IconTerminal2 from '@tabler/icons-react/icons/IconTerminal2';
import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { HOST_COMMANDS } from '../host-plugin.js';
import { useHostRuntime, useRuntimeStore, useWhenContext } from '../host-runtime-context.js';
import type { HostRuntime } from '../host-runtime.js';
import { useRouteVisibility } from '../navigation/use-route-visibility.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { createRecordSearch } from '../quick-search/record-search.js';
import { allModulesRoute } from '../routing/host-route-refs.js';
import { createContributedSearch, type KeyedContribution } from './contributed-search.js';
import { buildPaletteEntries, type PaletteDestination, type PaletteEntry } from './palette-entries.js';
import { contributedGroups, createPaletteIndex, paletteResults, recordGroups } from './palette-results.js';
import './command-palette.css';

/** All Modules, then every module and module page the user may open (sidebars link some twice). */
function usePaletteDestinations(): PaletteDestination[] {
  const main = useVisibleNav('main');
  const agent = useVisibleNav('agent');
  const sub = useVisibleNav('sub');
  const userMenu = useVisibleNav('user-menu');
  const resources = useVisibleNav('resources');
  return useMemo(
    () => [
      {
        entry: {
          id: 'host.all-modules',
          title: 'All Modules',
          pluginId: 'host',
          icon: IconLayoutGrid,
          command: HOST_COMMANDS.goToDashboard,
          to: allModulesRoute,
        },
        href: allModulesRoute.link({}),
      },
      ...main,
      ...agent,
      ...sub,
      ...userMenu,
      ...resources,
    ],
    [main, agent, sub, userMenu, resources],
  );
}

/** The commands of nav entries the user may not see: "Assign Claims" is hidden with its page. */
function commandsOfHiddenDestinations(runtime: HostRuntime, shown: readonly PaletteDestination[]): Set<string> {
  const visible = new Set(shown.flatMap((d) => (d.entry.command ? [d.entry.command] : [])));
  return new Set(
    (['main', 'agent', 'sub', 'user-menu', 'resources'] as const)
      .flatMap((area) => runtime.plugins.nav(area))
      .flatMap((entry) => (entry.command && !visible.has(entry.command) ? [entry.command] : [])),
  );
}

/** Quick-search providers of the modules the user may open (a refused module's would only 403). */
function useRecordProviders(runtime: HostRuntime): AnyQuickSearchProvider[] {
  const isVisible = useRouteVisibility();
  return useMemo(
    () =>
      runtime.plugins
        .plugins()
        .filter((plugin) =>
          isVisible({ path: '/', meta: {}, pluginId: plugin.id, moduleKey: plugin.moduleKey ?? undefined }),
        )
        .flatMap((plugin) => plugin.quickSearch),
    [runtime, isVisible],
  );
}

/**
 * An API client for the palette's record searches that reports a refusal in the results instead of
 * sending the user to /forbidden while they type (the shell's client does that for page loads).
 */
function searchApi(runtime: HostRuntime) {
  return createApiClient({
    baseUrl: '/api',
    getToken: () => runtime.auth.getState().session?.accessToken,
    getEffectiveRole: () => runtime.auth.getState().effectiveRole,
  });
}

/**
 * The run-time contributions of every module's palette sources (a third-party plugin's commands and
 * search), asked once per opening. Each source answers on its own within PALETTE_SOURCE_LOAD_MS; a
 * late or failed one contributes nothing. Sources are asked for a signed-in user, whatever the
 * module's visibility (like slot contributions): the calls they make are permission-checked for them.
 */
function usePaletteContributions(runtime: HostRuntime, api: ReturnType<typeof searchApi>): KeyedContribution[] {
  const routeLookup = useRouteLookup();
  const [found, setFound] = useState<KeyedContribution[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    // Only for a signed-in user: a source's calls are the user's (signed out, they would only 401).
    const sources = runtime.auth.getState().session
      ? runtime.plugins.plugins().flatMap((plugin) => plugin.palette)
      : [];
    for (const source of sources) {
      const limit = new Promise<null>((resolve) => setTimeout(() => resolve(null), PALETTE_SOURCE_LOAD_MS));
      let answer: Promise<unknown>;
      try {
        answer = Promise.resolve(
          source.load({ api, services: runtime.services, routeByName: routeLookup, signal: controller.signal }),
        );
      } catch {
        continue;
      }
      void Promise.race([answer.catch(() => null), limit]).then((list) => {
        if (controller.signal.aborted || !Array.isArray(list) || list.length === 0) return;
        const keyed = (list as KeyedContribution['contribution'][]).map((contribution) => ({
          key: `${source.id}:${contribution.id}`,
          contribution,
        }));
        setFound((previous) => [...previous, ...keyed]);
      });
    }
    return () => controller.abort();
    // Asked once per opening: the palette body mounts when the palette opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime, api]);
  return found;
}

function EntryIcon({ icon }: { icon: NavIcon | undefined }) {
  const Icon = icon && typeof icon !== 'string' ? icon : null;
  return (
    <div className="atrium-palette-icon" aria-hidden>
      {Icon ? <Icon size={16} /> : null}
    </div>
  );
}

function PaletteRow({ entry, onSelect }: { entry: PaletteEntry; onSelect(entry: PaletteEntry): void }) {
  return (
    <Command.Item value={entry.value} onSelect={() => onSelect(entry)}>
      <EntryIcon icon={entry.icon} />
      <div className="atrium-palette-text">
        {/* The module first, as a breadcrumb ("Access › Users"); the separator is drawn by CSS. */}
        {entry.breadcrumb ? <small className="atrium-palette-crumb">{entry.breadcrumb}</small> : null}
        <span className="atrium-palette-title">{entry.title}</span>
        {entry.subtitle ? <small className="atrium-palette-subtitle">{entry.subtitle}</small> : null}
      </div>
      {entry.shortcut ? <Kbd className="atrium-palette-shortcut">{entry.shortcut}</Kbd> : null}
    </Command.Item>
  );
}

function PaletteBody({ onClose }: { onClose(): void }) {
  const runtime = useHostRuntime();
  const [query, setQuery] = useState('');
  const when = useWhenContext();
  const allCommands = useSyncExternalStore(runtime.commands.subscribe, runtime.commands.list, runtime.commands.list);
  const bindings = useSyncExternalStore(
    runtime.keybindings.subscribe,
    runtime.keybindings.list,
    runtime.keybindings.list,
  );
  const destinations = usePaletteDestinations();
  const providers = useRecordProviders(runtime);
  const api = useMemo(() => searchApi(runtime), [runtime]);
  const contributed = usePaletteContributions(runtime, api);
  const modules = useMemo(() => {
    const titles = new Map<string, string>();
    const icons = new Map<string, NavIcon>();
    for (const plugin of runtime.plugins.plugins()) if (plugin.id !== 'host') titles.set(plugin.id, plugin.title);
    for (const entry of [...runtime.plugins.nav('main'), ...runtime.plugins.nav('agent')])
      if (entry.icon && !icons.has(entry.pluginId)) icons.set(entry.pluginId, entry.icon);
    return { titles, icons };
  }, [runtime]);

  const entries = useMemo(() => {
    void when; // `when` clauses of commands are evaluated against the context as it is now
    void allCommands;
    return buildPaletteEntries({
      recent: providers.map((p) => ({ type: p.type, typePlural: p.typePlural, items: runtime.recents.get(p.type) })),
      destinations,
      commands: runtime.commands.listEnabled(),
      hiddenCommands: commandsOfHiddenDestinations(runtime, destinations),
      keybindings: bindings,
      platform: runtime.platform,
      moduleTitles: modules.titles,
      moduleIcons: modules.icons,
      recentIcon: IconHistory,
      commandIcon: IconTerminal2,
      contributed,
      contributedIcon: IconPuzzle,
    });
  }, [runtime, destinations, providers, when, allCommands, bindings, modules, contributed]);
  const index = useMemo(() => createPaletteIndex(entries), [entries]);

  const records = useMemo(() => createRecordSearch({ providers, api }), [providers, api]);
  useEffect(() => () => records.dispose(), [records]);
  const found = useSyncExternalStore(records.subscribe, records.getState, records.getState);
  const foundGroups = useMemo(() => recordGroups(found.groups, IconFileSearch), [found]);
  // Contributions arrive after the palette opens: a new search takes over the text typed so far.
  const offered = useMemo(() => createContributedSearch(contributed), [contributed]);
  const queryRef = useRef(query);
  queryRef.current = query;
  useEffect(() => {
    offered.setQuery(queryRef.current);
    return () => offered.dispose();
  }, [offered]);
  const answered = useSyncExternalStore(offered.subscribe, offered.getState, offered.getState);
  const answeredGroups = useMemo(() => contributedGroups(answered.groups, IconPuzzle), [answered]);
  const groups = useMemo(
    () => paletteResults(index, query, { records: foundGroups, contributed: answeredGroups }),
    [index, query, foundGroups, answeredGroups],
  );

  const run = (entry: PaletteEntry) => {
    onClose();
    if (entry.kind === 'contributed' && entry.run) {
      Promise.resolve()
        .then(() => entry.run!())
        .catch((error: unknown) => runtime.services.showToast({ message: (error as Error).message, kind: 'error' }));
      return;
    }
    if (entry.kind === 'command' && entry.commandId) {
      runtime.commands
        .executeCommand(entry.commandId)
        .catch((error: unknown) => runtime.services.showToast({ message: (error as Error).message, kind: 'error' }));
      return;
    }
    // An opened record moves to the top of its type's recently viewed items.
    if (entry.record && entry.recordType) runtime.recents.add(entry.recordType, entry.record);
    if (entry.to) runtime.services.navigate(entry.to);
  };

  return (
    <Command label="Command palette" shouldFilter={false} loop className="atrium-palette">
      <Command.Input
        value={query}
        onValueChange={(next) => {
          setQuery(next);
          records.setQuery(next);
          offered.setQuery(next);
        }}
        placeholder="Go to a page, run a command, or find a claim, policy or contact…"
        autoFocus
      />
      <Command.List>
        {found.groups.some((g) => g.pending) || answered.groups.some((g) => g.pending) ? null : (
          <Command.Empty>No results found.</Command.Empty>
        )}
        {groups.map((group) => (
          <Command.Group key={group.heading} heading={group.heading}>
            {group.items.map((entry) => (
              <PaletteRow key={entry.value} entry={entry} onSelect={run} />
            ))}
            {group.pending && group.items.length === 0 ? (
              <Command.Loading>
                <span className="atrium-palette-status">
                  <Loader size="xs" aria-hidden /> Searching…
                </span>
              </Command.Loading>
            ) : null}
            {group.error ? (
              <p className="atrium-palette-status" role="status">
                {group.error}
              </p>
            ) : null}
          </Command.Group>
        ))}
      </Command.List>
    </Command>
  );
}

/**
 * Ctrl/Cmd+K or F1: every page the user may open, recently opened records, records found by every
 * quick search as they type, and every command with its shortcut — keyboard only.
 */
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
