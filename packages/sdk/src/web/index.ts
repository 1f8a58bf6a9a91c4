/**
 * `@atrium/sdk` — the web half of the plugin SDK: manifests, typed refs, registries, the `when`
 * language, shortcuts, quick search, the API client, the job runner and shared form/filter/message
 * logic, and the React hooks through which plugin components reach the host (plugin-host.tsx).
 * Otherwise pure TypeScript; the shell's components live in the host.
 */
export * from './api-version.js';
export * from './layouts.js';
export * from './route-ref.js';
export * from './slot-ref.js';
export * from './host-slots.js';
export * from './slot-outlet.js';
export * from './context-keys.js';
export * from './command.js';
export * from './keybinding.js';
export * from './quick-search.js';
export * from './palette-source.js';
export * from './plugin-manifest.js';
export * from './define-plugin.js';
export * from './manifest-validation.js';
export * from './plugin-registry.js';
export * from './when-expression.js';
export * from './context-service.js';
export * from './command-registry.js';
export * from './key-sequence.js';
export * from './keybinding-manager.js';
export * from './keybinding-dom.js';
export * from './key-value-storage.js';
export * from './recent-items.js';
export * from './quick-search-controller.js';
export * from './api-error.js';
export * from './api-client.js';
export * from './on-check.js';
export * from './job-runner-machine.js';
export * from './form-rules.js';
export * from './server-form-errors.js';
export * from './filter-definitions.js';
export * from './messages.js';
export * from './fuzzy-match.js';
export * from './palette-items.js';
export * from './my-work.js';
export * from './plugin-host.js';
export * from './use-can.js';
export { z } from 'zod';
export * from './ui/shared-dialogs.js';
export * from './ui/theme.js';
export * from './ui/format.js';
export * from './ui/status-badge.js';
export * from './ui/states.js';
export * from './ui/data-table.js';
export * from './ui/tree-keyboard.js';
export * from './ui/pagination-labels.js';
export * from './ui/page-header.js';
export * from './ui/stat.js';
export * from './ui/my-work-list.js';
export * from './resource-client.js';
export * from '../shared/index.js';
