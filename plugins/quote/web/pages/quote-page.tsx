import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Modal,
  Radio,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import {
  ErrorAlert,
  formatDate,
  formatMoney,
  isApiRequestError,
  LoadingState,
  PageHeader,
  QueryState,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
  usePluginContextKey,
  type ActingPluginChange,
} from '@atrium/sdk';
import { flowPages, type FlowPage, type FlowRiskType, type QuoteFlow } from '../../shared/flow.js';
import {
  QUOTE_STATUS,
  quoteApi,
  type ElementState,
  type Quote,
  type RiskNode,
  type UnderwritingIssue,
} from '../quote-api.js';
import { localStepStorage, quoteFlowMachine, type QuoteFacts } from '../quote-flow-machine.js';
import { editRiskRoute, quotePageRoute } from '../routes.js';
import { AttachmentsPanel } from './attachments-panel.js';
import { QuoteDocumentsButton } from './quote-documents.js';
import { RatingChanges } from './rating-changes.js';
import { RemovedRiskChanges } from './plugin-changes.js';
import { RiskButtonRow, RiskFields, RiskItems, type Answers, type ItemDraft } from './risk-form.js';

/** "250000.00" → "250000" (the options are whole amounts). */
const plain = (value: string | null) => (value === null ? null : value.replace(/\.0+$/, ''));

const factsOf = (q: Quote): QuoteFacts => ({
  status: q.status,
  isBound: q.is_bound,
  isBinding: q.is_binding,
  locked: q.meta.locked,
});

/** The quote: its flow's pages (from the server), the sidebar and the toolbar. */
export default function QuotePage() {
  const { quoteNumber = '' } = useParams();
  const api = useApiClient();
  const quote = useQuery({
    queryKey: ['quote', quoteNumber],
    queryFn: ({ signal }) => quoteApi(api).get(quoteNumber, signal),
  });
  const flow = useQuery({ queryKey: ['quote', quoteNumber, 'flow'], queryFn: () => quoteApi(api).flow(quoteNumber) });
  usePluginContextKey('quote', 'quoteOpen', quoteNumber);
  if (quote.error || flow.error) {
    return (
      <Stack>
        <PageHeader title={`Quote ${quoteNumber}`} />
        <ErrorAlert error={quote.error ?? flow.error} />
      </Stack>
    );
  }
  if (!quote.data || !flow.data) {
    return (
      <Stack>
        <PageHeader title={`Quote ${quoteNumber}`} />
        <LoadingState />
      </Stack>
    );
  }
  return <QuoteFlowView quote={quote.data} flow={flow.data} />;
}

function QuoteFlowView({ quote, flow }: { quote: Quote; flow: QuoteFlow }) {
  const api = useApiClient();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { services } = useHostServicesSafe();
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const pages = useMemo(() => flowPages(flow), [flow]);
  const number = quote.quote_number;
  const root = quote.risk_quote;
  const [drafts, setDrafts] = useState<Record<number, Answers>>({});
  const [itemDrafts, setItemDrafts] = useState<Record<number, ItemDraft[]>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [worksheetOpen, setWorksheetOpen] = useState(false);
  const mayRate = useCan('quote:quote', 'rate');
  const maySubmit = useCan('quote:quote', 'submit');
  const mayBind = useCan('quote:quote', 'bind');
  const refresh = () => client.invalidateQueries({ queryKey: ['quote', number] });

  const rules = useQuery({
    queryKey: ['quote', number, 'rules', root?.id],
    queryFn: () => quoteApi(api).evaluate(root!.id),
    enabled: !!root,
  });
  const controls = useMemo(
    () => new Map<string, ElementState>((rules.data?.actions ?? []).map((a) => [a.name, a])),
    [rules.data],
  );

  /** Every risk id in the tree (a plugin's changes to other risks are of removed ones). */
  const riskIds = (tree: RiskNode): Set<number> => {
    const ids = new Set<number>();
    const walk = (n: RiskNode) => {
      ids.add(n.id);
      n.risk_quotes.forEach(walk);
    };
    walk(tree);
    return ids;
  };

  const risksOnPage = (page: FlowPage | undefined, tree: RiskNode | null = root): RiskNode[] => {
    if (!page || !tree) return [];
    const types = page.components.flatMap((c) => (c.type === 'riskEdit' ? [c.risk_type] : []));
    const out: RiskNode[] = [];
    const walk = (n: RiskNode) => {
      if (types.includes(n.risk_state.type.name)) out.push(n);
      n.risk_quotes.forEach(walk);
    };
    walk(tree);
    return out;
  };

  const answersOf = (risk: RiskNode) => ({ ...risk.risk_state.field_answers, ...(drafts[risk.id] ?? {}) });
  const itemsOf = (risk: RiskNode): ItemDraft[] =>
    itemDrafts[risk.id] ??
    risk.risk_state.items.map((i) => ({ name: i.name, limit: plain(i.limit), deductible: plain(i.deductible) }));
  // The machine's actors outlive renders: they read the latest drafts and quote through this ref.
  const latest = useRef({ drafts, itemDrafts, root, itemsOf });
  latest.current = { drafts, itemDrafts, root, itemsOf };
  // Answers are saved one after another, in the order they were given.
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const [state, send] = useMachine(
    quoteFlowMachine.provide({
      actors: {
        submitPage: fromPromise(async ({ input }: { input: { step: string; next: string | null } }) => {
          const page = pages.find((p) => p.name === input.step);
          await queue.current.catch(() => undefined);
          const { drafts: pending, itemDrafts: pendingItems, root: tree, itemsOf: items } = latest.current;
          const risks = risksOnPage(page, tree);
          setErrors({});
          try {
            for (const [index, risk] of risks.entries()) {
              const last = index === risks.length - 1;
              await quoteApi(api).saveRisk(
                risk.id,
                { field_answers: pending[risk.id] ?? {}, ...(pendingItems[risk.id] ? { items: items(risk) } : {}) },
                last && input.next ? { page_name: input.step, target_page_name: input.next } : {},
              );
            }
            setDrafts({});
            setItemDrafts({});
          } catch (error) {
            if (isApiRequestError(error)) {
              const found: Record<string, string> = {};
              for (const item of error.errors) {
                const m = /^\/risks\/(\d+)\/field_answers\/(.+)$/.exec(item.pointer ?? '');
                if (m) found[`${m[1]}.${m[2]}`] = item.detail;
              }
              setErrors(found);
            }
            throw error;
          } finally {
            await refresh();
          }
        }),
        fetchBinding: fromPromise(async () => factsOf(await quoteApi(api).get(number))),
      },
    }),
    {
      input: {
        quoteNumber: number,
        steps: pages.map((p) => p.name),
        reviewStep: pages.find((p) => p.review)?.name ?? null,
        quote: factsOf(quote),
        storage: localStepStorage(),
        initialStep: params.pageName,
      },
    },
  );
  const current = state.context.current;
  const page = pages.find((p) => p.name === current)!;

  useEffect(() => {
    send({ type: 'QUOTE.UPDATED', quote: factsOf(quote) });
  }, [quote, send]);
  useEffect(() => {
    if (params.pageName !== current || params.pageGroupName !== page.group) {
      navigate(
        quotePageRoute.link({ quoteNumber: number, pageGroupName: page.group, pageName: current }) +
          window.location.search,
        {
          replace: true,
        },
      );
    }
  }, [current, page.group, params.pageName, params.pageGroupName, number, navigate]);
  useEffect(() => {
    if (state.context.quote.isBound !== quote.is_bound) void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.context.quote.isBound]);

  const act = useMutation({
    mutationFn: async (action: 'rate' | 'submit' | 'bind') => {
      if (action === 'rate') return quoteApi(api).rate(number);
      if (action === 'submit') return quoteApi(api).submit(number);
      send({ type: 'BIND.REQUESTED' });
      return quoteApi(api).bind(number);
    },
    onSuccess: async (_data, action) => {
      await refresh();
      services?.showToast({
        message: action === 'rate' ? 'Quote rated.' : action === 'submit' ? 'Quote submitted.' : 'Quote bound.',
        kind: 'success',
      });
    },
    onSettled: () => refresh(),
  });

  // Palette commands land here as ?action=rate|submit|bind.
  const handled = useRef<string | null>(null);
  useEffect(() => {
    const action = search.get('action');
    if (!action || handled.current === action) return;
    handled.current = action;
    const next = new URLSearchParams(search);
    next.delete('action');
    setSearch(next, { replace: true });
    if (action === 'rate' || action === 'submit' || action === 'bind') act.mutate(action);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const readOnly = quote.meta.locked || quote.is_bound;
  /**
   * An answer is checked by the server (validate-answer, message on the field), then kept with the
   * rules evaluated again, so that what the rules show, hide or require follows the answer.
   */
  const check = (risk: RiskNode, field: string, value: unknown) => {
    const key = `${risk.id}.${field}`;
    queue.current = queue.current
      .catch(() => undefined)
      .then(async () => {
        try {
          const answer = await quoteApi(api).validateAnswer(risk.id, field, value ?? null);
          setErrors((e) => {
            const next = { ...e };
            if (answer.valid) delete next[key];
            else next[key] = answer.message ?? 'This answer is not valid.';
            return next;
          });
          const saved = await quoteApi(api).saveRisk(
            risk.id,
            { field_answers: { [field]: value ?? null } },
            { rules_action: 'evaluate' },
          );
          if (saved.rules) client.setQueryData(['quote', number, 'rules', root?.id], saved.rules);
          setDrafts((d) => {
            const own = { ...(d[risk.id] ?? {}) };
            if (own[field] === value) delete own[field];
            return { ...d, [risk.id]: own };
          });
          await refresh();
        } catch (error) {
          if (isApiRequestError(error)) setErrors((e) => ({ ...e, [key]: error.message }));
        }
      });
  };
  /** A slot plugin's answers: saved like the user's own (in the same queue), errors go back to it. */
  const pluginUpdate = (risk: RiskNode, answers: Answers, plugin?: ActingPluginChange) => {
    const run = queue.current
      .catch(() => undefined)
      .then(async () => {
        const saved = await quoteApi(api).saveRisk(
          risk.id,
          { field_answers: answers },
          { rules_action: 'evaluate' },
          plugin,
        );
        if (saved.rules) client.setQueryData(['quote', number, 'rules', root?.id], saved.rules);
        setDrafts((d) => {
          const own = { ...(d[risk.id] ?? {}) };
          for (const field of Object.keys(answers)) delete own[field];
          return { ...d, [risk.id]: own };
        });
        await refresh();
      });
    queue.current = run;
    return run;
  };
  /**
   * A slot plugin's new child risk (`create-and-update-risk`): added and saved like the user's own,
   * in the same queue; when its answers are refused the risk is removed again, so a refused
   * event leaves nothing behind.
   */
  const pluginCreate = (parent: RiskNode, riskType: string, answers: Answers, plugin?: ActingPluginChange) => {
    const run = queue.current
      .catch(() => undefined)
      .then(async () => {
        const created = await quoteApi(api).addRisk(number, parent.id, riskType, plugin);
        try {
          if (Object.keys(answers).length > 0)
            await quoteApi(api).saveRisk(created.id, { field_answers: answers }, { rules_action: 'evaluate' }, plugin);
        } catch (error) {
          await quoteApi(api)
            .removeRisk(created.id, plugin)
            .catch(() => undefined);
          throw error;
        } finally {
          await refresh();
        }
        return created.id;
      });
    queue.current = run;
    return run;
  };
  const change = (risk: RiskNode, field: string, value: unknown) =>
    setDrafts((d) => ({ ...d, [risk.id]: { ...(d[risk.id] ?? {}), [field]: value } }));

  const typeOf = (name: string) => flow.risk_types.find((t) => t.name === name)!;

  return (
    <Stack>
      <PageHeader
        title={`Quote ${number}`}
        description={`${quote.product_label} · ${quote.named_insureds[0]?.name ?? ''}`}
        actions={
          <Group gap="xs">
            <StatusBadge labels={QUOTE_STATUS} value={quote.status} size="lg" />
            <QuoteDocumentsButton number={number} />
            {mayRate.allowed && !readOnly ? (
              <Button
                variant="default"
                onClick={() => act.mutate('rate')}
                loading={act.isPending && act.variables === 'rate'}
              >
                Rate
              </Button>
            ) : null}
            {maySubmit.allowed &&
            quote.quoting_actions?.submit !== false &&
            !readOnly &&
            quote.status === 'In Progress' ? (
              <Button
                variant="default"
                onClick={() => act.mutate('submit')}
                disabled={!quote.last_rated_at || quote.rating_stale}
                loading={act.isPending && act.variables === 'submit'}
              >
                Submit
              </Button>
            ) : null}
          </Group>
        }
      />
      {quote.alerts.map((a) => (
        <Alert
          key={a.id}
          color={a.kind === 'approved' ? 'green' : a.kind === 'declined' ? 'red' : 'yellow'}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => void quoteApi(api).dismissAlert(number, a.id).then(refresh)}
        >
          {a.message}
        </Alert>
      ))}
      {quote.policy ? (
        <Alert color="green" title="Bound">
          Policy{' '}
          <Anchor href={`/policies/policy/${quote.policy.id}`} fw={700}>
            {quote.policy.policy_number}
          </Anchor>{' '}
          was issued from this quote.
        </Alert>
      ) : null}
      {act.error ? <ErrorAlert error={act.error} /> : null}
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Sidebar
            quote={quote}
            pages={pages}
            current={current}
            reachable={(step) => isStepReachable(state.context, step)}
            completed={state.context.completed}
            onGo={(step) => send({ type: 'GO', step })}
            onWorksheet={() => setWorksheetOpen(true)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Card withBorder>
            <Stack>
              <Title order={2}>{page.label}</Title>
              {readOnly ? <Text c="dimmed">This quote is locked: its pages are read-only.</Text> : null}
              {page.components.map((component, index) => {
                switch (component.type) {
                  case 'riskEdit': {
                    const type = typeOf(component.risk_type);
                    if (!root) return null;
                    if (component.policy === 'root') {
                      return (
                        <Stack key={index}>
                          <RiskFields
                            type={type}
                            risk={root}
                            rootId={root.id}
                            answers={answersOf(root)}
                            controls={controls}
                            errors={errors}
                            readOnly={readOnly || root.meta.locked}
                            onChange={(f, v) => change(root, f, v)}
                            onCheck={(f, v) => check(root, f, v)}
                          />
                          <RiskItems
                            type={type}
                            items={itemsOf(root)}
                            readOnly={readOnly}
                            onChange={(items) => setItemDrafts((d) => ({ ...d, [root.id]: items }))}
                          />
                          <RiskButtonRow
                            quoteNumber={number}
                            type={type}
                            risk={root}
                            answers={answersOf(root)}
                            readOnly={readOnly || root.meta.locked}
                            onUpdate={(answers, plugin) => pluginUpdate(root, answers, plugin)}
                            childTypes={flow.risk_types.filter((t) => t.parent === type.name)}
                            onCreate={(riskType, answers, plugin) => pluginCreate(root, riskType, answers, plugin)}
                          />
                          <RemovedRiskChanges
                            quoteNumber={number}
                            presentRiskIds={riskIds(root)}
                            types={flow.risk_types}
                          />
                        </Stack>
                      );
                    }
                    return (
                      <ChildRisks
                        key={index}
                        quoteNumber={number}
                        type={type}
                        root={root}
                        risks={risksOnPage(page).filter((r) => r.risk_state.type.name === type.name)}
                        readOnly={readOnly}
                        render={(risk) => (
                          <>
                            <RiskFields
                              type={type}
                              risk={risk}
                              rootId={root.id}
                              answers={answersOf(risk)}
                              controls={controls}
                              errors={errors}
                              readOnly={readOnly || risk.meta.locked}
                              onChange={(f, v) => change(risk, f, v)}
                              onCheck={(f, v) => check(risk, f, v)}
                            />
                            <RiskItems
                              type={type}
                              items={itemsOf(risk)}
                              readOnly={readOnly}
                              onChange={(items) => setItemDrafts((d) => ({ ...d, [risk.id]: items }))}
                            />
                            <RiskButtonRow
                              quoteNumber={number}
                              type={type}
                              risk={risk}
                              answers={answersOf(risk)}
                              readOnly={readOnly || risk.meta.locked}
                              onUpdate={(answers, plugin) => pluginUpdate(risk, answers, plugin)}
                              childTypes={flow.risk_types.filter((t) => t.parent === type.name)}
                              onCreate={(riskType, answers, plugin) => pluginCreate(risk, riskType, answers, plugin)}
                            />
                          </>
                        )}
                        onAdd={async () => {
                          const parent =
                            type.parent === flow.risk_types.find((t) => t.parent === null)?.name ? root : root;
                          await quoteApi(api).addRisk(number, parent.id, type.name);
                          await refresh();
                        }}
                        onRemove={async (risk) => {
                          await quoteApi(api).removeRisk(risk.id);
                          await refresh();
                        }}
                      />
                    );
                  }
                  case 'reviewPanel':
                    return (
                      <ReviewPanel
                        key={index}
                        quote={quote}
                        onWorksheet={() => setWorksheetOpen(true)}
                        onChanged={refresh}
                      />
                    );
                  case 'billingPanel':
                    return <BillingPanel key={index} quote={quote} readOnly={readOnly} />;
                  case 'bindPanel':
                    return (
                      <Stack key={index}>
                        {quote.policy ? (
                          <Text>
                            Bound as policy <b>{quote.policy.policy_number}</b>.
                          </Text>
                        ) : mayBind.allowed && quote.quoting_actions?.bind === false ? (
                          <Text c="dimmed">
                            {quote.state
                              ? `Your quoting permissions do not include binding ${quote.product_label} quotes in ${quote.state}.`
                              : 'This quote has no state: your quoting permissions are per state, so it cannot be bound.'}
                          </Text>
                        ) : mayBind.allowed ? (
                          <Group>
                            <Button
                              onClick={() => act.mutate('bind')}
                              loading={act.isPending && act.variables === 'bind'}
                              disabled={quote.status !== 'Approved' || state.context.quote.isBinding}
                            >
                              Bind
                            </Button>
                            {quote.status !== 'Approved' ? (
                              <Text c="dimmed">Only an approved quote can be bound.</Text>
                            ) : null}
                          </Group>
                        ) : (
                          <Text c="dimmed">Binding needs an agent or underwriter.</Text>
                        )}
                        <BindBlockers quote={quote} />
                      </Stack>
                    );
                  default:
                    return null;
                }
              })}
              {state.context.error ? (
                <Alert color="red" role="alert">
                  {state.context.error}
                </Alert>
              ) : null}
              <Group justify="space-between">
                {page.components.some((c) => c.type === 'backButton') && pages[0]!.name !== current ? (
                  <Button variant="default" onClick={() => send({ type: 'BACK' })}>
                    Back
                  </Button>
                ) : (
                  <span />
                )}
                {page.components.some((c) => c.type === 'continueButton') ? (
                  <Button onClick={() => send({ type: 'SUBMIT' })} loading={state.matches({ nav: 'submitting' })}>
                    Continue
                  </Button>
                ) : null}
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
      <Modal opened={worksheetOpen} onClose={() => setWorksheetOpen(false)} title="Rating worksheet" size="xl">
        <Worksheet worksheet={quote.worksheet} />
      </Modal>
    </Stack>
  );
}

function useHostServicesSafe() {
  try {
    return { services: useHostServices() };
  } catch {
    return { services: null };
  }
}

function isStepReachable(
  context: { steps: string[]; completed: string[]; reviewStep: string | null; quote: QuoteFacts },
  step: string,
) {
  const index = context.steps.indexOf(step);
  if (context.steps.slice(0, index).some((s) => !context.completed.includes(s))) return false;
  const review = context.reviewStep ? context.steps.indexOf(context.reviewStep) : -1;
  return !(review >= 0 && index > review && context.quote.status !== 'Approved' && !context.quote.isBound);
}

function Sidebar({
  quote,
  pages,
  current,
  reachable,
  completed,
  onGo,
  onWorksheet,
}: {
  quote: Quote;
  pages: (FlowPage & { group: string })[];
  current: string;
  reachable: (step: string) => boolean;
  completed: string[];
  onGo: (step: string) => void;
  onWorksheet: () => void;
}) {
  return (
    <Card withBorder component="aside" aria-label="Quote summary">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          Quote
        </Text>
        <Text fw={700}>{quote.quote_number}</Text>
        <Text size="sm" c="dimmed">
          Line
        </Text>
        <Text>{quote.product_label}</Text>
        <Text size="sm" c="dimmed">
          Dates
        </Text>
        <Text>
          {formatDate(quote.term.effective_date)} – {formatDate(quote.term.expiration_date)}
        </Text>
        <Text size="sm" c="dimmed">
          Premium
        </Text>
        {quote.premium ? (
          <Button variant="subtle" px={0} onClick={onWorksheet} justify="flex-start">
            {formatMoney(quote.premium.term, 'USD')}
            {quote.rating_stale ? ' (rate again)' : ''}
            {/* The name starts with what is seen (WCAG 2.5.3, label in name) and says what it does. */}
            <VisuallyHidden>, open the worksheet</VisuallyHidden>
          </Button>
        ) : (
          <Text>Not rated</Text>
        )}
        <Text size="sm" c="dimmed" mt="sm">
          Steps
        </Text>
        <Stack gap={4} component="nav" aria-label="Quote steps">
          {pages.map((p) => (
            <Button
              key={p.name}
              variant={p.name === current ? 'light' : 'subtle'}
              justify="space-between"
              disabled={!reachable(p.name)}
              onClick={() => onGo(p.name)}
              aria-current={p.name === current ? 'step' : undefined}
              rightSection={
                completed.includes(p.name) ? (
                  <Badge size="xs" color="green">
                    Done
                  </Badge>
                ) : null
              }
            >
              {p.label}
            </Button>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

function ChildRisks({
  quoteNumber,
  type,
  risks,
  readOnly,
  render,
  onAdd,
  onRemove,
}: {
  quoteNumber: string;
  type: FlowRiskType;
  root: RiskNode;
  risks: RiskNode[];
  readOnly: boolean;
  render: (risk: RiskNode) => React.ReactNode;
  onAdd: () => Promise<void>;
  onRemove: (risk: RiskNode) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Stack>
      {risks.length === 0 ? <Text c="dimmed">No {type.label.toLowerCase()} yet.</Text> : null}
      {risks.map((risk, i) => (
        <Card key={risk.id} withBorder>
          <Stack>
            <Group justify="space-between">
              <Text fw={600}>
                {type.label} {i + 1}
              </Text>
              <Group gap="xs">
                <Button
                  variant="subtle"
                  size="xs"
                  component={Link}
                  to={editRiskRoute.link({ quoteNumber, riskId: String(risk.id) })}
                  state={{ from: window.location.pathname }}
                >
                  Open {type.label.toLowerCase()} {i + 1}
                </Button>
                {!readOnly ? (
                  <Button variant="subtle" color="red" size="xs" onClick={() => void onRemove(risk)}>
                    Remove {type.label.toLowerCase()} {i + 1}
                  </Button>
                ) : null}
              </Group>
            </Group>
            {render(risk)}
          </Stack>
        </Card>
      ))}
      {!readOnly ? (
        <Group>
          <Button
            variant="default"
            loading={busy}
            onClick={() => {
              setBusy(true);
              void onAdd().finally(() => setBusy(false));
            }}
          >
            Add {type.label.toLowerCase()}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function BindBlockers({ quote }: { quote: Quote }) {
  const open = quote.underwriting_issues.filter((i) => i.status === 'open' && i.blocking !== 'none');
  if (open.length === 0) return null;
  return (
    <Alert color="yellow" title="Open underwriting issues">
      <Stack gap={4}>
        {open.map((i) => (
          <Text key={i.id} size="sm">
            {i.message} — cleared by {i.authority}.
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

function ReviewPanel({
  quote,
  onWorksheet,
  onChanged,
}: {
  quote: Quote;
  onWorksheet: () => void;
  onChanged: () => Promise<unknown>;
}) {
  const api = useApiClient();
  const mayUnderwrite = useCan('quote:quote', 'underwrite');
  const mayUpdate = useCan('quote:quote', 'update');
  const triggers = useQuery({
    queryKey: ['quote', quote.quote_number, 'triggers', quote.status],
    queryFn: () => quoteApi(api).triggers(quote.quote_number),
  });
  const [reason, setReason] = useState('');
  const [clearing, setClearing] = useState<{ issue: UnderwritingIssue; decision: 'approve' | 'reject' } | null>(null);
  const run = useMutation({
    mutationFn: (name: string) => quoteApi(api).runTrigger(quote.quote_number, name, reason.trim() || undefined),
    onSuccess: async () => {
      setReason('');
      await onChanged();
    },
  });
  const underwriting = (triggers.data?.results ?? []).filter((t) => t.name === 'approve' || t.name === 'decline');
  const mayClear =
    mayUnderwrite.allowed && !quote.is_bound && quote.status !== 'Declined' && quote.status !== 'Abandoned';
  return (
    <Stack>
      <Group>
        <Text>Premium:</Text>
        {quote.premium ? (
          <Anchor component="button" onClick={onWorksheet}>
            {formatMoney(quote.premium.term, 'USD')}
          </Anchor>
        ) : (
          <Text c="dimmed">Not rated yet — rate the quote first.</Text>
        )}
      </Group>
      <RatingChanges quote={quote} />
      <Title order={3}>Underwriting issues</Title>
      {quote.underwriting_issues.length === 0 ? (
        <Text c="dimmed">No underwriting issues.</Text>
      ) : (
        <Table aria-label="Underwriting issues">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Issue</Table.Th>
              <Table.Th>Blocks</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Cleared by</Table.Th>
              {mayClear ? <Table.Th>Referral</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {quote.underwriting_issues.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>{i.message}</Table.Td>
                <Table.Td>
                  {i.blocking === 'none' ? '–' : i.blocking.charAt(0).toUpperCase() + i.blocking.slice(1)}
                </Table.Td>
                <Table.Td>{ISSUE_STATUS[i.status] ?? i.status}</Table.Td>
                <Table.Td>
                  {i.resolved_by ? `${i.resolved_by}${i.reason ? ` — ${i.reason}` : ''}` : i.authority}
                </Table.Td>
                {mayClear ? (
                  <Table.Td>
                    {i.status === 'open' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Approve: ${i.message}`}
                          onClick={() => setClearing({ issue: i, decision: 'approve' })}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          aria-label={`Decline: ${i.message}`}
                          onClick={() => setClearing({ issue: i, decision: 'reject' })}
                        >
                          Decline
                        </Button>
                      </Group>
                    ) : null}
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {clearing ? (
        <ClearReferral
          quote={quote}
          issue={clearing.issue}
          decision={clearing.decision}
          onClose={() => setClearing(null)}
          onDone={async () => {
            setClearing(null);
            await onChanged();
          }}
        />
      ) : null}
      {underwriting.length > 0 ? (
        <Stack>
          <Textarea
            label="Reason for the whole quote"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maw={480}
          />
          <Group>
            {underwriting.map((t) => (
              <Button
                key={t.name}
                variant="default"
                color={t.name === 'decline' ? 'red' : undefined}
                onClick={() => run.mutate(t.name)}
                loading={run.isPending && run.variables === t.name}
                disabled={t.reason_required && !reason.trim()}
              >
                {t.label} quote
              </Button>
            ))}
          </Group>
          {run.error ? <ErrorAlert error={run.error} /> : null}
        </Stack>
      ) : null}
      <AttachmentsPanel number={quote.quote_number} readOnly={!mayUpdate.allowed} />
    </Stack>
  );
}

const ISSUE_STATUS: Record<string, string> = { open: 'Open', approved: 'Approved', rejected: 'Declined' };

/** Approves or declines one referral with a reason (the underwriter's decision on that issue). */
function ClearReferral({
  quote,
  issue,
  decision,
  onClose,
  onDone,
}: {
  quote: Quote;
  issue: UnderwritingIssue;
  decision: 'approve' | 'reject';
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const api = useApiClient();
  const [reason, setReason] = useState('');
  const verb = decision === 'approve' ? 'Approve' : 'Decline';
  const clear = useMutation({
    mutationFn: () => quoteApi(api).clearIssue(quote.quote_number, issue.id, decision, reason.trim()),
    onSuccess: onDone,
  });
  return (
    <Modal opened onClose={onClose} title={`${verb} the referral`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (reason.trim()) clear.mutate();
        }}
      >
        <Stack>
          <Text>{issue.message}</Text>
          {decision === 'reject' ? (
            <Text size="sm" c="dimmed">
              Declining a referral declines the quote.
            </Text>
          ) : null}
          <Textarea
            label="Reason"
            required
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          {clear.error ? <ErrorAlert error={clear.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={decision === 'reject' ? 'red' : undefined}
              loading={clear.isPending}
              disabled={!reason.trim()}
            >
              {verb} referral
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function BillingPanel({ quote, readOnly }: { quote: Quote; readOnly: boolean }) {
  const api = useApiClient();
  const client = useQueryClient();
  const number = quote.quote_number;
  const config = useQuery({
    queryKey: ['quote', number, 'billing-config'],
    queryFn: () => quoteApi(api).billingConfig(number),
  });
  const billing = useQuery({ queryKey: ['quote', number, 'billing'], queryFn: () => quoteApi(api).billing(number) });
  const scheduleIds = (config.data?.schedules ?? []).map((s) => s.id);
  const preview = useQuery({
    queryKey: ['quote', number, 'preview', scheduleIds.join(','), quote.premium?.term],
    queryFn: () =>
      quoteApi(api).preview({
        billing_schedule_ids: scheduleIds,
        effective_date: quote.term.effective_date,
        premium: quote.premium!.term,
        payment_method: null,
      }),
    enabled: scheduleIds.length > 0 && !!quote.premium,
  });
  const choose = useMutation({
    mutationFn: async (scheduleId: string) => {
      let methodId = billing.data?.payment_method_id ?? null;
      const schedule = config.data!.schedules.find((s) => s.id === scheduleId)!;
      if (methodId === null && schedule.paymentMethods.includes('card')) {
        // The embedded test processor's card: a token, never the number.
        const token = `tok_test_${Math.random().toString(36).slice(2, 14).padEnd(10, '0')}`;
        const added = await quoteApi(api).addPaymentMethod({
          quote_number: number,
          type: 'card',
          token,
          last4: '4242',
          expiry: '12/30',
        });
        methodId = added.payment_method.id;
      }
      const method = billing.data?.payment_methods.find((m) => m.id === methodId);
      const usable = method ? schedule.paymentMethods.includes(method.type) : methodId !== null;
      await quoteApi(api).chooseBilling(number, scheduleId, usable ? methodId : null);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['quote', number] }),
  });
  return (
    <QueryState query={config}>
      {(cfg) => (
        <Stack>
          <Radio.Group
            label="Billing schedule"
            value={billing.data?.billing_schedule_id ?? ''}
            onChange={(id) => !readOnly && choose.mutate(id)}
          >
            <Stack gap="xs" mt="xs">
              {cfg.schedules.map((s) => {
                const p = preview.data?.previews.find((x) => x.scheduleId === s.id);
                return (
                  <Radio
                    key={s.id}
                    value={s.id}
                    disabled={readOnly}
                    label={`${s.name}${p ? ` — ${p.installments.length} × from ${formatMoney(p.installments[0]?.total ?? '0', 'USD')}, total ${formatMoney(p.total, 'USD')}` : ''}`}
                  />
                );
              })}
            </Stack>
          </Radio.Group>
          {billing.data?.payment_methods.length ? (
            <Text size="sm">
              Payment method:{' '}
              {billing.data.payment_methods
                .map((m) => `${m.type === 'card' ? 'Card' : 'Bank account'} ending ${m.last4}`)
                .join(', ')}
            </Text>
          ) : null}
          {choose.error ? <ErrorAlert error={choose.error} /> : null}
        </Stack>
      )}
    </QueryState>
  );
}

interface WorksheetRiskLike {
  type: string;
  path: string;
  premium: string | null;
  calculations: { name: string; formula: string; value?: string; skipped?: string }[];
  children: WorksheetRiskLike[];
}

const walkRisks = (risk: WorksheetRiskLike): WorksheetRiskLike[] => [risk, ...risk.children.flatMap(walkRisks)];

/** The rating worksheet: every calculation of every risk, its formula and value. */
function Worksheet({ worksheet }: { worksheet: unknown }) {
  const root = (worksheet as { root?: WorksheetRiskLike } | null)?.root;
  if (!root) return <Text c="dimmed">Not rated yet.</Text>;
  return (
    <Stack>
      {walkRisks(root).map((r) => (
        <Stack key={r.path} gap={4}>
          <Text fw={600}>
            {r.type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())}
            {r.premium ? ` — premium ${formatMoney(r.premium, 'USD')}` : ''}
          </Text>
          <Table aria-label={`Worksheet of ${r.path}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Calculation</Table.Th>
                <Table.Th>Formula</Table.Th>
                <Table.Th ta="right">Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.calculations
                .filter((l) => !l.skipped)
                .map((l) => (
                  <Table.Tr key={l.name}>
                    <Table.Td>{l.name.replace(/_/g, ' ')}</Table.Td>
                    <Table.Td>
                      <code>{l.formula}</code>
                    </Table.Td>
                    <Table.Td ta="right">{l.value}</Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
    </Stack>
  );
}
