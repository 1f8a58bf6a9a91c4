import { Box, Card, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import {
  ErrorState,
  LoadingState,
  myWorkWidgets,
  useAccessEvaluator,
  useSession,
  type NavIcon,
  type RegisteredMyWorkWidget,
} from '@atrium/sdk';
import { Component, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useHostRuntime, useWhenContext } from '../host-runtime-context.js';
import { useRouteVisibilityState } from '../navigation/use-route-visibility.js';
import { lazyPage, preloadPage } from '../routing/lazy-page.js';

/** One widget's failure (a chunk that does not load, a render error) stays inside its card. */
class WidgetBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <ErrorState error={this.state.error} /> : this.props.children;
  }
}

function WidgetIcon({ icon }: { icon: NavIcon | undefined }) {
  if (!icon || typeof icon === 'string') return null;
  const Icon = icon;
  return <Icon size={18} aria-hidden />;
}

/** An empty widget's height (EmptyState: title and one line of text in a dashed box). */
const WIDGET_BODY_MIN_HEIGHT = 88;

function WidgetCard({ widget }: { widget: RegisteredMyWorkWidget }) {
  const Body = lazyPage(widget.loader);
  const headingId = `my-work-${widget.id.replace(/[^a-z0-9-]/gi, '-')}`;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group gap={8} wrap="nowrap">
          <WidgetIcon icon={widget.icon} />
          <Title order={3} size="h5" id={headingId}>
            {widget.title}
          </Title>
        </Group>
        {/* The body keeps at least the height of an empty widget, so the skeleton, the empty state
            and a short list take the same room and the module tiles below do not jump (CLS). */}
        <Box mih={WIDGET_BODY_MIN_HEIGHT}>
          <WidgetBoundary>
            <Suspense fallback={<LoadingState rows={3} label={`Loading ${widget.title}`} />}>
              <Body />
            </Suspense>
          </WidgetBoundary>
        </Box>
      </Stack>
    </Card>
  );
}

/**
 * The widgets whose access question (the one their API calls are checked with) is allowed: those
 * without one at once, the others once answered. Asked together, so that the section knows whether
 * any widget is left before it shows its heading (an agent saw "My work" over nothing).
 */
function useAllowedWidgets(widgets: RegisteredMyWorkWidget[]): {
  allowed: RegisteredMyWorkWidget[];
  settled: boolean;
} {
  const evaluator = useAccessEvaluator();
  const { signedIn, effectiveRole } = useSession();
  const [answers, setAnswers] = useState<{ for: RegisteredMyWorkWidget[]; allowed: ReadonlySet<string> } | null>(null);
  useEffect(() => {
    let live = true;
    // The widgets' code downloads while their access questions are answered, not after: one round
    // trip less before My work shows. A widget then refused costs a small chunk that never runs.
    for (const widget of widgets) preloadPage(widget.loader);
    void Promise.all(
      widgets.map((widget) => (widget.access ? evaluator.evaluate(widget.access).catch(() => false) : true)),
    ).then((results) => {
      if (live) setAnswers({ for: widgets, allowed: new Set(widgets.filter((_, i) => results[i]).map((w) => w.id)) });
    });
    return () => {
      live = false;
    };
  }, [evaluator, widgets, signedIn, effectiveRole]);
  if (answers?.for === widgets)
    return { allowed: widgets.filter((widget) => answers.allowed.has(widget.id)), settled: true };
  return { allowed: widgets.filter((widget) => !widget.access), settled: !widgets.some((widget) => widget.access) };
}

/**
 * The My work widgets for the effective role: those of the modules it may view, whose `when` holds
 * now, and whose access question is allowed. `settled` once every access question is answered.
 */
export function useMyWork(): { allowed: RegisteredMyWorkWidget[]; settled: boolean } {
  const runtime = useHostRuntime();
  const when = useWhenContext();
  const { isVisible, settled: modulesSettled } = useRouteVisibilityState();
  const widgets = useMemo(() => {
    void when; // `when` clauses follow the context (the role)
    return myWorkWidgets(runtime.plugins.plugins()).filter(
      (widget) =>
        runtime.context.evaluate(widget.when) &&
        isVisible({ path: '/', meta: {}, pluginId: widget.pluginId, moduleKey: widget.moduleKey }),
    );
  }, [runtime, when, isVisible]);
  const { allowed, settled } = useAllowedWidgets(widgets);
  // Until every module's ViewModule answer is in, a widget of a pending module is left out: not settled.
  return { allowed, settled: settled && modulesSettled };
}

/** "My work" above the All Modules tiles (`useMyWork`'s widgets). Nothing at all when none is left. */
export function MyWorkSection({ allowed }: { allowed: RegisteredMyWorkWidget[] }) {
  if (allowed.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="atrium-my-work-heading">
      <Title order={2} size="h4" id="atrium-my-work-heading">
        My work
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        {allowed.map((widget) => (
          <WidgetCard key={widget.id} widget={widget} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
