import type { AccessQuestion } from './use-can.js';
import type { LazyComponentLoader, NavIcon, PluginManifest } from './plugin-manifest.js';

/**
 * "My work" widgets: what a module puts above the All Modules tiles for the person signed in — an
 * adjuster's open claims, payments waiting on their approval, an agent's open quotes. A plugin lists
 * them in its manifest's `myWork`; the host shows the widgets of modules the effective role may view
 * whose `when` holds and whose `access` question (if any) the access service allows — the same
 * evaluation the server applies to the widget's API calls, so nobody sees a widget that would only
 * answer 403. The widget's component loads lazily, so the first page carries none of its code.
 */
export interface MyWorkWidget {
  /** Unique across plugins, e.g. `claims.my-open-claims`. */
  id: string;
  /** The widget's heading, e.g. 'My open claims'. */
  title: string;
  /** Ascending; ties keep registration order. */
  order?: number;
  icon?: NavIcon;
  /** A `when` expression, e.g. `role == "Claims Adjuster"`; the widget shows only while it holds. */
  when?: string;
  /** Shown only when the effective role may do this (e.g. approve payments). */
  access?: Pick<AccessQuestion, 'resource' | 'action'>;
  /** The widget's body; it reads what it needs through the SDK's hooks (useApiClient, useSession). */
  loader: LazyComponentLoader;
}

export interface RegisteredMyWorkWidget extends MyWorkWidget {
  pluginId: string;
  /** The owning module's access key: its widgets show only when the module may be viewed. */
  moduleKey: string | undefined;
}

/** Identity, for type checking a widget written apart from its manifest. */
export function defineMyWorkWidget(widget: MyWorkWidget): MyWorkWidget {
  return widget;
}

/** Every installed plugin's widgets, sorted by `order` (ties: plugin registration order). */
export function myWorkWidgets(manifests: readonly PluginManifest[]): RegisteredMyWorkWidget[] {
  return manifests
    .flatMap((manifest) =>
      (manifest.myWork ?? []).map((widget) => ({ ...widget, pluginId: manifest.id, moduleKey: manifest.moduleKey })),
    )
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/** Problems with one manifest's widgets (ids, loaders); `when` is checked with the other clauses. */
export function myWorkProblems(widgets: readonly MyWorkWidget[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const widget of widgets) {
    if (!widget.id) problems.push('a My work widget has no id');
    else if (seen.has(widget.id)) problems.push(`duplicate My work widget '${widget.id}'`);
    seen.add(widget.id);
    if (!widget.title) problems.push(`My work widget '${widget.id}': title is required`);
    if (typeof widget.loader !== 'function') problems.push(`My work widget '${widget.id}': loader must be a function`);
    if (widget.access && (!widget.access.resource || !widget.access.action))
      problems.push(`My work widget '${widget.id}': access needs a resource and an action`);
  }
  return problems;
}
