import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  ErrorAlert,
  isApiRequestError,
  LoadingState,
  PageHeader,
  useApiClient,
  useHostServices,
  usePluginContextKey,
} from '@atrium/sdk';
import type { FlowRiskType, QuoteFlow } from '../../shared/flow.js';
import { quoteApi, type ElementState, type Quote, type RiskNode } from '../quote-api.js';
import { addRiskRoute, editRiskRoute, quoteRoute } from '../routes.js';
import { RiskFields, RiskItems, type Answers, type ItemDraft } from './risk-form.js';

const plain = (value: string | null) => (value === null ? null : value.replace(/\.0+$/, ''));

const walk = (risk: RiskNode | null): RiskNode[] => (risk ? [risk, ...risk.risk_quotes.flatMap(walk)] : []);

/** "Scheduled article 2": a risk's label with its place among its siblings of the same type. */
function riskTitle(root: RiskNode | null, risk: RiskNode, type: FlowRiskType): string {
  if (root?.id === risk.id) return type.label;
  const parent = walk(root).find((r) => r.risk_quotes.some((c) => c.id === risk.id));
  const siblings = (parent?.risk_quotes ?? []).filter((r) => r.risk_state.type.name === type.name);
  return `${type.label} ${siblings.findIndex((r) => r.id === risk.id) + 1}`;
}

/**
 * quote:edit-risk and quote:add-risk. Editing shows one risk's answers (with the rules' UI controls),
 * its coverages and its child risks, each with its own page; Save keeps the answers (checked by the
 * server, messages on the fields). Adding creates the risk under its parent when saved — nothing is
 * created by opening the page — then keeps its answers; if those are refused, the page stays with the
 * messages on the fields, and saving again answers the risk already created.
 */
export default function RiskEditPage() {
  const { quoteNumber = '', riskId, riskTypeName } = useParams();
  const [search] = useSearchParams();
  const api = useApiClient();
  usePluginContextKey('quote', 'quoteOpen', quoteNumber);
  const quote = useQuery({
    queryKey: ['quote', quoteNumber],
    queryFn: ({ signal }) => quoteApi(api).get(quoteNumber, signal),
  });
  const flow = useQuery({ queryKey: ['quote', quoteNumber, 'flow'], queryFn: () => quoteApi(api).flow(quoteNumber) });
  const adding = riskId === undefined;
  const title = adding ? 'Add risk' : 'Edit risk';
  if (quote.error || flow.error) {
    return (
      <Stack>
        <PageHeader title={title} />
        <ErrorAlert error={quote.error ?? flow.error} />
      </Stack>
    );
  }
  if (!quote.data || !flow.data) {
    return (
      <Stack>
        <PageHeader title={title} />
        <LoadingState />
      </Stack>
    );
  }
  const root = quote.data.risk_quote;
  if (adding) {
    const type = flow.data.risk_types.find((t) => t.name === riskTypeName);
    const parentId = search.get('parent') ? Number(search.get('parent')) : root?.id;
    const parent = walk(root).find((r) => r.id === parentId);
    if (!type || !parent || type.parent !== parent.risk_state.type.name) {
      const what = type ? `a ${type.label.toLowerCase()}` : 'a risk of that kind';
      return <Missing quote={quote.data} message={`This quote has no place for ${what} there.`} />;
    }
    return <RiskEditor key="new" quote={quote.data} flow={flow.data} type={type} parent={parent} risk={null} />;
  }
  const risk = walk(root).find((r) => String(r.id) === riskId);
  const type = risk && flow.data.risk_types.find((t) => t.name === risk.risk_state.type.name);
  if (!risk || !type) return <Missing quote={quote.data} message="This quote has no such risk." />;
  return <RiskEditor key={risk.id} quote={quote.data} flow={flow.data} type={type} parent={null} risk={risk} />;
}

function Missing({ quote, message }: { quote: Quote; message: string }) {
  return (
    <Stack>
      <PageHeader title={`Quote ${quote.quote_number}`} />
      <Text>{message}</Text>
      <Anchor component={Link} to={quoteRoute.link({ quoteNumber: quote.quote_number })}>
        Back to quote {quote.quote_number}
      </Anchor>
    </Stack>
  );
}

function RiskEditor({
  quote,
  flow,
  type,
  parent,
  risk,
}: {
  quote: Quote;
  flow: QuoteFlow;
  type: FlowRiskType;
  /** Set when adding: the risk the new one goes under. */
  parent: RiskNode | null;
  /** Set when editing. */
  risk: RiskNode | null;
}) {
  const api = useApiClient();
  const client = useQueryClient();
  const navigate = useNavigate();
  const services = useHostServices();
  const number = quote.quote_number;
  const root = quote.risk_quote;
  const [answers, setAnswers] = useState<Answers>({});
  const [items, setItems] = useState<ItemDraft[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  // When adding: the risk once created, so that saving again (after refused answers) creates no second.
  const [created, setCreated] = useState<RiskNode | null>(null);
  const readOnly = quote.meta.locked || quote.is_bound || !!risk?.meta.locked;
  // Back to the quote page the risk was opened from (its link passes it), else the quote's own page.
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const backToQuote =
    typeof from === 'string' && from.startsWith(`/quote/${number}/`) ? from : quoteRoute.link({ quoteNumber: number });

  const rules = useQuery({
    queryKey: ['quote', number, 'rules', root?.id],
    queryFn: () => quoteApi(api).evaluate(root!.id),
    enabled: !!root,
  });
  const controls = useMemo(
    () => new Map<string, ElementState>((rules.data?.actions ?? []).map((a) => [a.name, a])),
    [rules.data],
  );
  // A risk being added has no id yet: its form reads as a new child risk (no rules control it yet).
  const shown: RiskNode = risk ?? {
    id: -1,
    risk_state: { type: { name: type.name }, field_answers: {}, items: [] },
    risk_quotes: [],
    meta: { locked: false },
  };
  const currentItems: ItemDraft[] =
    items ??
    shown.risk_state.items.map((i) => ({ name: i.name, limit: plain(i.limit), deductible: plain(i.deductible) }));
  const childTypes = flow.risk_types.filter((t) => t.parent === type.name);
  const heading = risk ? riskTitle(root, risk, type) : `New ${type.label.toLowerCase()}`;

  /** An answer is checked by the server as it is given (validate-answer); a new risk is checked on Save. */
  const check = async (field: string, value: unknown) => {
    const target = risk ?? created;
    if (!target) return;
    const key = `${risk ? target.id : -1}.${field}`;
    try {
      const answer = await quoteApi(api).validateAnswer(target.id, field, value ?? null);
      setErrors((e) => {
        const next = { ...e };
        if (answer.valid) delete next[key];
        else next[key] = answer.message ?? 'This answer is not valid.';
        return next;
      });
    } catch (error) {
      if (isApiRequestError(error)) setErrors((e) => ({ ...e, [key]: error.message }));
    }
  };

  const save = async () => {
    setSaving(true);
    setErrors({});
    setFailure(null);
    let target = risk ?? created;
    try {
      if (!target) {
        target = await quoteApi(api).addRisk(number, parent!.id, type.name);
        setCreated(target);
      }
      await quoteApi(api).saveRisk(target.id, {
        field_answers: answers,
        ...(items ? { items: currentItems } : {}),
      });
      await client.invalidateQueries({ queryKey: ['quote', number] });
      services.showToast({ message: `${risk ? heading : type.label} saved.`, kind: 'success' });
      navigate(backToQuote);
    } catch (error) {
      await client.invalidateQueries({ queryKey: ['quote', number] });
      const found: Record<string, string> = {};
      if (isApiRequestError(error)) {
        for (const item of error.errors) {
          const m = /^\/risks\/(\d+)\/field_answers\/(.+)$/.exec(item.pointer ?? '');
          if (m) found[`${risk ? m[1] : -1}.${m[2]}`] = item.detail;
        }
      }
      // Created but its answers refused: the page goes on with the answers and the messages.
      setErrors(found);
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack>
      <PageHeader
        title={heading}
        description={`Quote ${number} · ${quote.product_label}`}
        actions={
          <Anchor component={Link} to={backToQuote}>
            Back to quote {number}
          </Anchor>
        }
      />
      {readOnly ? <Text c="dimmed">This quote is locked: its risks are read-only.</Text> : null}
      {failure ? <ErrorAlert error={failure} /> : null}
      <Card withBorder>
        <Stack>
          <RiskFields
            type={type}
            risk={shown}
            rootId={root?.id ?? -1}
            answers={{ ...shown.risk_state.field_answers, ...answers }}
            controls={controls}
            errors={Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^-1\./, `${shown.id}.`), v]))}
            readOnly={readOnly}
            onChange={(field, value) => setAnswers((a) => ({ ...a, [field]: value }))}
            onCheck={(field, value) => void check(field, value)}
          />
          <RiskItems type={type} items={currentItems} readOnly={readOnly} onChange={setItems} />
        </Stack>
      </Card>
      {risk && childTypes.length > 0 ? (
        <Card withBorder>
          <Stack>
            {childTypes.map((child) => {
              const children = risk.risk_quotes.filter((r) => r.risk_state.type.name === child.name);
              return (
                <Stack key={child.name} gap="xs">
                  <Text fw={600}>{child.label}</Text>
                  {children.length === 0 ? <Text c="dimmed">No {child.label.toLowerCase()} yet.</Text> : null}
                  {children.map((c, i) => (
                    <Anchor
                      key={c.id}
                      component={Link}
                      to={editRiskRoute.link({ quoteNumber: number, riskId: String(c.id) })}
                      state={{ from: backToQuote }}
                    >
                      {child.label} {i + 1}
                    </Anchor>
                  ))}
                  {!readOnly ? (
                    <Group>
                      <Button
                        variant="default"
                        component={Link}
                        to={`${addRiskRoute.link({ quoteNumber: number, riskTypeName: child.name })}?parent=${risk.id}`}
                        state={{ from: backToQuote }}
                      >
                        Add {child.label.toLowerCase()}
                      </Button>
                    </Group>
                  ) : null}
                </Stack>
              );
            })}
          </Stack>
        </Card>
      ) : null}
      {!readOnly ? (
        <Group>
          <Button onClick={() => void save()} loading={saving}>
            Save
          </Button>
          <Button variant="default" component={Link} to={backToQuote}>
            Cancel
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
