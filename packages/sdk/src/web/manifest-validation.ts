import { isCompatibleApiVersion, SDK_API_VERSION } from './api-version.js';
import { isLayout, LAYOUTS } from './layouts.js';
import type { PluginManifest } from './plugin-manifest.js';
import { normalizePath, parseRoutePath } from './route-ref.js';
import { parseWhen } from './when-expression.js';
import { parseKeySequence } from './key-sequence.js';
import { myWorkProblems } from './my-work.js';

/** Every problem found in one manifest, so a plugin author fixes them in one go. */
export class PluginValidationError extends Error {
  constructor(
    readonly pluginId: string,
    readonly problems: readonly string[],
  ) {
    super(`Plugin '${pluginId}' is invalid:\n- ${problems.join('\n- ')}`);
    this.name = 'PluginValidationError';
  }
}

const PLUGIN_ID = /^[a-z][a-z0-9-]*$/;
const NAV_AREAS = new Set(['main', 'sub', 'agent', 'user-menu', 'resources']);

function duplicates(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) dupes.add(value);
    seen.add(value);
  }
  return [...dupes];
}

function checkWhen(problems: string[], where: string, when: string | undefined) {
  if (when === undefined) return;
  try {
    parseWhen(when);
  } catch (error) {
    problems.push(`${where}: ${(error as Error).message}`);
  }
}

/** Checks one manifest in isolation. Cross-plugin duplicates are the registry's job. */
export function validateManifest(manifest: PluginManifest): string[] {
  const problems: string[] = [];
  if (!isCompatibleApiVersion(manifest.apiVersion)) {
    problems.push(`built with SDK API ${manifest.apiVersion}, the host runs ${SDK_API_VERSION}`);
  }
  if (typeof manifest.id !== 'string' || !PLUGIN_ID.test(manifest.id)) {
    problems.push(`id ${JSON.stringify(manifest.id)} must be lowercase letters, digits and '-'`);
  }
  if (!manifest.title) problems.push('title is required');

  for (const route of manifest.routes) {
    const label = `route '${route.name ?? route.path}'`;
    if (route.meta?.layout !== undefined && !isLayout(route.meta.layout)) {
      problems.push(
        `${label}: invalid layout ${JSON.stringify(route.meta.layout)} (expected one of ${LAYOUTS.join(', ')})`,
      );
    }
    try {
      parseRoutePath(route.path);
    } catch (error) {
      problems.push(`${label}: ${(error as Error).message}`);
    }
    if (route.meta?.loginOnly && route.meta?.requiresAuth) {
      problems.push(`${label}: a login-only page cannot require auth`);
    }
  }
  for (const name of duplicates(manifest.routes.flatMap((r) => (r.name ? [r.name] : [])))) {
    problems.push(`duplicate route name '${name}'`);
  }
  for (const path of duplicates(manifest.routes.map((r) => normalizePath(r.path)))) {
    problems.push(`duplicate route path '${manifest.routes.find((r) => normalizePath(r.path) === path)?.path}'`);
  }

  for (const entry of manifest.nav) {
    if (!NAV_AREAS.has(entry.area)) problems.push(`nav '${entry.id}': area must be main, sub or agent`);
    if (!entry.to || entry.to.kind !== 'route-ref') problems.push(`nav '${entry.id}': 'to' must be a route ref`);
    if (!Number.isFinite(entry.order)) problems.push(`nav '${entry.id}': order must be a number`);
    checkWhen(problems, `nav '${entry.id}'`, entry.when);
  }
  for (const id of duplicates(manifest.nav.map((n) => n.id))) problems.push(`duplicate nav id '${id}'`);

  for (const command of manifest.commands) {
    if (!command.id) problems.push('a command has no id');
    if (typeof command.run !== 'function') problems.push(`command '${command.id}': run must be a function`);
    checkWhen(problems, `command '${command.id}'`, command.when);
  }
  for (const id of duplicates(manifest.commands.map((c) => c.id))) problems.push(`duplicate command id '${id}'`);

  for (const shortcut of manifest.shortcuts) {
    try {
      parseKeySequence(shortcut.key);
    } catch (error) {
      problems.push(`shortcut '${shortcut.key}': ${(error as Error).message}`);
    }
    checkWhen(problems, `shortcut '${shortcut.key}'`, shortcut.when);
  }

  for (const provider of manifest.quickSearch) {
    if (!provider.id || !provider.type || !provider.typePlural) {
      problems.push(`quick search provider '${provider.id}': id, type and typePlural are required`);
    }
    if (provider.minLength !== undefined && !(Number.isInteger(provider.minLength) && provider.minLength >= 1)) {
      problems.push(`quick search provider '${provider.id}': minLength must be a positive integer`);
    }
  }
  for (const id of duplicates(manifest.quickSearch.map((p) => p.id)))
    problems.push(`duplicate quick search provider '${id}'`);

  for (const id of duplicates((manifest.palette ?? []).map((p) => p.id)))
    problems.push(`duplicate palette source '${id}'`);

  for (const panel of manifest.activityPanels) checkWhen(problems, `activity panel '${panel.id}'`, panel.when);
  for (const id of duplicates(manifest.activityPanels.map((p) => p.id)))
    problems.push(`duplicate activity panel '${id}'`);

  for (const slot of manifest.slots) {
    if (!slot.slot || slot.slot.kind !== 'slot-ref')
      problems.push(`slot contribution '${slot.id}': 'slot' must be a slot ref`);
    checkWhen(problems, `slot contribution '${slot.id}'`, slot.when);
  }
  problems.push(...myWorkProblems(manifest.myWork ?? []));
  for (const widget of manifest.myWork ?? []) checkWhen(problems, `My work widget '${widget.id}'`, widget.when);
  return problems;
}
