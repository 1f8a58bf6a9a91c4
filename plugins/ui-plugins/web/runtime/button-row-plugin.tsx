import { Alert, Button, Group, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useHostServices, useRouteLookup, type RiskEditButtonRowContext } from '@atrium/sdk';
import { createBridge, type Bridge } from './plugin-bridge.js';
import { runHostAction } from './host-actions.js';
import { capabilityFor, refusal } from './plugin-capabilities.js';
import { applyRiskPatch, newRiskAnswers, withEveryField } from './risk-patch.js';
import type { EnabledPlugin } from './enabled-plugins.js';

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a plugin may read of the slot: the context without its callbacks. */
const readable = (c: RiskEditButtonRowContext) => ({
  quoteNumber: c.quoteNumber,
  riskId: c.riskId,
  riskType: c.riskType,
  fields: c.fields,
  risk: { field_answers: withEveryField(c.risk, c.fields) },
  readOnly: c.readOnly,
  childRiskTypes: c.childRiskTypes.map((t) => ({ name: t.name, label: t.label, fields: [...t.fields] })),
});

/**
 * One third-party plugin in the risk-edit button row: its code runs in a hidden sandboxed iframe
 * (`allow-scripts` only: opaque origin, no DOM, storage or cookies of the host, no top navigation
 * or popups), and its buttons are data the host renders. A click goes to the plugin; the plugin's
 * `update-risk` patch is checked here and saved through the quote page's own save path.
 */
export function ButtonRowPlugin({
  plugin,
  context,
  onRetry,
}: {
  plugin: EnabledPlugin;
  context: RiskEditButtonRowContext;
  /** Loads the plugin afresh (a new iframe and bridge). */
  onRetry: () => void;
}) {
  const services = useHostServices();
  const routeByName = useRouteLookup();
  const routes = useRef(routeByName);
  routes.current = routeByName;
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<Bridge | null>(null);
  const latest = useRef(context);
  latest.current = context;
  const [buttons, setButtons] = useState<{ id: string; text: string }[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const toasts = useRef<number[]>([]);
  const mayRead = plugin.capabilities.includes('read-context');

  useEffect(() => {
    if (!frame.current) return;
    // A registered plugin (not a dev-harness preview) has a record the server audits its changes under.
    const registered = RECORD_ID.test(plugin.id);
    const acting = (patch: readonly object[]) => (registered ? { pluginId: plugin.id, patch } : undefined);
    const b = createBridge({
      frame: frame.current,
      welcome: () => ({
        slot: plugin.slot_name,
        context: mayRead ? readable(latest.current) : null,
        configuration: plugin.configuration,
      }),
      onReady: () => undefined,
      onFail: (reason) => setFailed(reason),
      onMessage: (message) => {
        const answer = (call: string, error?: string, value?: unknown) =>
          b.send(
            error
              ? { type: 'result', call, ok: false, error }
              : { type: 'result', call, ok: true, ...(value !== undefined ? { value } : {}) },
          );
        const needed = capabilityFor(message);
        if (needed && !plugin.capabilities.includes(needed)) {
          // Refused before anything happens, with a message the plugin's author can act on.
          const error = refusal(plugin.name, needed);
          return 'call' in message
            ? answer(message.call, error)
            : b.send({ type: 'refused', request: message.type, error });
        }
        if (message.type === 'buttons') return setButtons(message.buttons);
        if (
          runHostAction(message, {
            plugin,
            registered,
            services,
            routeByName: (name) => routes.current(name),
            toasts: toasts.current,
            answer,
          })
        )
          return;
        if (message.type !== 'update-risk' && message.type !== 'create-and-update-risk') return;
        const ctx = latest.current;
        if (ctx.readOnly) return answer(message.call, 'The risk is read-only.');
        if (busyRef.current) return answer(message.call, 'Another change from this plugin is still being saved.');
        let work: () => Promise<unknown>;
        let done: string;
        if (message.type === 'update-risk') {
          const patched = applyRiskPatch(ctx.risk, message.patch, ctx.fields);
          if (!patched.ok) return answer(message.call, patched.error);
          if (Object.keys(patched.changed).length === 0) return answer(message.call);
          work = () => ctx.updateRisk(patched.changed, acting(message.patch));
          done = `${plugin.name} updated the risk.`;
        } else {
          // Every new risk is checked before the first is created: a bad entry creates none.
          const news: { riskType: string; answers: Record<string, unknown>; patch: object[] }[] = [];
          for (const entry of message.risks) {
            const made = newRiskAnswers(entry.risk_type, entry.patch, ctx.childRiskTypes);
            if (!made.ok) return answer(message.call, made.error);
            news.push({ riskType: entry.risk_type, answers: made.changed, patch: entry.patch });
          }
          work = async () => {
            const ids: number[] = [];
            for (const n of news) ids.push(await ctx.createRisk(n.riskType, n.answers, acting(n.patch)));
            return { riskIds: ids };
          };
          done = `${plugin.name} added ${news.length === 1 ? 'a risk' : `${news.length} risks`}.`;
        }
        busyRef.current = true;
        setBusy(true);
        work()
          .then((value) => {
            services.showToast({ message: done, kind: 'success' });
            answer(message.call, undefined, value);
          })
          .catch((error: unknown) =>
            answer(message.call, error instanceof Error ? error.message : 'The change was not saved.'),
          )
          .finally(() => {
            busyRef.current = false;
            setBusy(false);
          });
      },
    });
    bridge.current = b;
    return () => {
      b.dispose();
      bridge.current = null;
    };
  }, [plugin, services, mayRead]);

  // The plugin sees the risk as it changes (saved answers and the user's drafts).
  const seen = JSON.stringify(readable(context));
  useEffect(() => {
    if (mayRead) bridge.current?.send({ type: 'context', context: JSON.parse(seen) });
  }, [seen, mayRead]);

  if (failed)
    return (
      <Alert color="red" variant="light" p="xs" title={`${plugin.name} was stopped`}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">The plugin was stopped because {failed} The rest of the page keeps working.</Text>
          <Button size="xs" variant="default" onClick={onRetry} aria-label={`Try ${plugin.name} again`}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  return (
    <Group gap="xs" data-plugin={plugin.name}>
      {buttons.map((button) => (
        <Button
          key={button.id}
          variant="light"
          size="xs"
          disabled={context.readOnly || busy}
          loading={busy}
          onClick={() => bridge.current?.send({ type: 'button-clicked', id: button.id })}
        >
          {button.text}
        </Button>
      ))}
      <iframe
        ref={frame}
        src={plugin.src}
        sandbox="allow-scripts"
        title={`Plugin ${plugin.name}`}
        aria-hidden
        tabIndex={-1}
        referrerPolicy="no-referrer"
        onLoad={() => bridge.current?.loaded()}
        style={{ width: 0, height: 0, border: 0, position: 'absolute' }}
      />
    </Group>
  );
}
