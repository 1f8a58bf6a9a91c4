import { Alert, Button, Group, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useHostServices, type RiskEditButtonRowContext } from '@atrium/sdk';
import { createBridge, type Bridge } from './plugin-bridge.js';
import { applyRiskPatch, withEveryField } from './risk-patch.js';
import type { EnabledPlugin } from './enabled-plugins.js';

const TOAST_WINDOW_MS = 10_000;
const TOASTS_PER_WINDOW = 3;

/** What a plugin may read of the slot: the context without its callbacks. */
const readable = (c: RiskEditButtonRowContext) => ({
  quoteNumber: c.quoteNumber,
  riskId: c.riskId,
  riskType: c.riskType,
  fields: c.fields,
  risk: { field_answers: withEveryField(c.risk, c.fields) },
  readOnly: c.readOnly,
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
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<Bridge | null>(null);
  const latest = useRef(context);
  latest.current = context;
  const [buttons, setButtons] = useState<{ id: string; text: string }[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const toasts = useRef<number[]>([]);

  useEffect(() => {
    if (!frame.current) return;
    const b = createBridge({
      frame: frame.current,
      welcome: () => ({
        slot: plugin.slot_name,
        context: readable(latest.current),
        configuration: plugin.configuration,
      }),
      onReady: () => undefined,
      onFail: (reason) => setFailed(reason),
      onMessage: (message) => {
        if (message.type === 'buttons') return setButtons(message.buttons);
        if (message.type === 'toast') {
          // A plugin's toasts are rationed, so a chatty one cannot bury the page's own.
          const now = Date.now();
          toasts.current = toasts.current.filter((t) => now - t < TOAST_WINDOW_MS);
          if (toasts.current.length >= TOASTS_PER_WINDOW) return;
          toasts.current.push(now);
          return services.showToast({ message: `${plugin.name}: ${message.message}`, kind: message.kind ?? 'info' });
        }
        if (message.type === 'update-risk') {
          const answer = (error?: string) =>
            b.send(
              error
                ? { type: 'result', call: message.call, ok: false, error }
                : { type: 'result', call: message.call, ok: true },
            );
          const ctx = latest.current;
          if (ctx.readOnly) return answer('The risk is read-only.');
          if (busyRef.current) return answer('Another change from this plugin is still being saved.');
          const patched = applyRiskPatch(ctx.risk, message.patch, ctx.fields);
          if (!patched.ok) return answer(patched.error);
          if (Object.keys(patched.changed).length === 0) return answer();
          busyRef.current = true;
          setBusy(true);
          ctx
            .updateRisk(patched.changed)
            .then(() => {
              services.showToast({ message: `${plugin.name} updated the risk.`, kind: 'success' });
              answer();
            })
            .catch((error: unknown) => answer(error instanceof Error ? error.message : 'The change was not saved.'))
            .finally(() => {
              busyRef.current = false;
              setBusy(false);
            });
        }
      },
    });
    bridge.current = b;
    return () => {
      b.dispose();
      bridge.current = null;
    };
  }, [plugin, services]);

  // The plugin sees the risk as it changes (saved answers and the user's drafts).
  const seen = JSON.stringify(readable(context));
  useEffect(() => {
    bridge.current?.send({ type: 'context', context: JSON.parse(seen) });
  }, [seen]);

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
