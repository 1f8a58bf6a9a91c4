import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient, type QueryParams } from '@atrium/sdk';
import type { Worksheet } from '@atrium/rating';
import { asRecord, listOf, num, pick, str, type Json } from './read-json.js';

/**
 * The scenario calls of the Lines API (spec section 7: scenarios under products/{p}/scenarios/ —
 * CRUD, copy, reset, rate; risks with risk_state; items; validate-answer), the risk-type definitions
 * the risk-state form needs, and readers for their answers.
 */
export const TRANSACTION_TYPES = [
  'new_business',
  'renewal',
  'endorsement',
  'cancellation',
  'reinstatement',
  'rewrite',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export interface Premium {
  term: string;
  pro_rata: string;
  fully_earned?: string;
  return?: string;
}

export interface RiskItemState {
  name: string;
  limit?: string | null;
  deductible?: string | null;
  limits?: Record<string, string>;
  deductibles?: Record<string, string>;
  fully_earned?: boolean;
}

export type Answer = string | number | boolean | null;

export interface RiskNode {
  id: number;
  type: { name: string };
  field_answers: Record<string, Answer>;
  items: RiskItemState[];
  children: RiskNode[];
}

export interface Scenario {
  id: number;
  name: string;
  transaction_type: TransactionType;
  effective_date: string;
  term_start: string | null;
  term_end: string | null;
  expected_premium: string | null;
  premium: Premium | null;
  last_rated_at: string | null;
  unified_risk_state: RiskNode | null;
}

export interface Rating {
  premium: Premium;
  worksheet: Worksheet;
  rated_at: string | null;
}

export interface ScenarioScope {
  productId: number;
  versionId: number;
}

const base = ({ productId }: ScenarioScope) => `/lines/products/${productId}/scenarios/`;
const one = (scope: ScenarioScope, id: number) => `${base(scope)}${id}/`;
const riskPath = (scope: ScenarioScope, scenarioId: number, riskId: number) =>
  `${one(scope, scenarioId)}risks/${riskId}/`;
const versionQuery = (scope: ScenarioScope): QueryParams => ({ version_id: scope.versionId });

function readPremium(value: unknown): Premium | null {
  const record = asRecord(value);
  const term = str(pick(record, 'term', 'termPremium'));
  if (term === null) return null;
  return {
    term,
    pro_rata: str(pick(record, 'pro_rata', 'proRata', 'proRataPremium')) ?? term,
    ...(str(record.fully_earned) !== null ? { fully_earned: str(record.fully_earned)! } : {}),
    ...(str(record.return) !== null ? { return: str(record.return)! } : {}),
  };
}

export function readRiskNode(value: unknown): RiskNode | null {
  const record = asRecord(value);
  const id = num(record.id);
  if (id === null) return null;
  const type = asRecord(record.type);
  return {
    id,
    type: { name: str(type.name) ?? str(pick(record, 'risk_type')) ?? '' },
    field_answers: asRecord(pick(record, 'field_answers')) as Record<string, Answer>,
    items: listOf(record.items) as RiskItemState[],
    children: listOf(record.children)
      .map(readRiskNode)
      .filter((n): n is RiskNode => n !== null),
  };
}

export function readScenario(body: unknown): Scenario {
  const record = asRecord(body);
  return {
    id: num(record.id) ?? 0,
    name: str(record.name) ?? '',
    transaction_type: (str(record.transaction_type) ?? 'new_business') as TransactionType,
    effective_date: str(record.effective_date) ?? '',
    term_start: str(record.term_start),
    term_end: str(record.term_end),
    expected_premium: str(record.expected_premium),
    premium: readPremium(record.premium),
    last_rated_at: str(record.last_rated_at),
    unified_risk_state: readRiskNode(record.unified_risk_state),
  };
}

export function readRating(body: unknown): Rating {
  const record = asRecord(body);
  const worksheet = asRecord(record.worksheet) as unknown as Worksheet;
  const premium = readPremium(record.premium) ?? readPremium(worksheet.term) ?? { term: '0', pro_rata: '0' };
  return { premium, worksheet, rated_at: str(record.rated_at) };
}

export const scenarioKeys = {
  all: ['lines', 'scenarios'] as const,
  list: (scope: ScenarioScope) => ['lines', 'scenarios', scope] as const,
  one: (scope: ScenarioScope, id: number) => ['lines', 'scenarios', scope, id] as const,
};

export function useScenarios(scope: ScenarioScope) {
  const api = useApiClient();
  return useQuery({
    queryKey: scenarioKeys.list(scope),
    queryFn: async ({ signal }) =>
      listOf(await api.get(base(scope), { query: versionQuery(scope), signal })).map(readScenario),
  });
}

export function useScenario(scope: ScenarioScope, id: number) {
  const api = useApiClient();
  return useQuery({
    queryKey: scenarioKeys.one(scope, id),
    queryFn: async ({ signal }) => readScenario(await api.get(one(scope, id), { query: versionQuery(scope), signal })),
  });
}

export interface ScenarioInput {
  name: string;
  transaction_type: TransactionType;
  effective_date: string;
  expected_premium: string | null;
}

function useScenarioWrite<V, R = unknown>(write: (api: ApiClient, v: V) => Promise<R>) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => write(api, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.all }),
  });
}

export function useScenarioActions(scope: ScenarioScope) {
  const query = versionQuery(scope);
  return {
    create: useScenarioWrite((api, input: ScenarioInput) =>
      api.post<Json>(base(scope), input, { query }).then(readScenario),
    ),
    update: useScenarioWrite((api, { id, input }: { id: number; input: Partial<ScenarioInput> }) =>
      api.put<Json>(one(scope, id), input, { query }).then(readScenario),
    ),
    remove: useScenarioWrite((api, id: number) => api.delete(one(scope, id), { query })),
    copy: useScenarioWrite((api, id: number) =>
      api.post<Json>(`${one(scope, id)}copy/`, {}, { query }).then(readScenario),
    ),
    reset: useScenarioWrite((api, id: number) =>
      api.post<Json>(`${one(scope, id)}reset/`, {}, { query }).then(readScenario),
    ),
    recordKnownAnswer: useScenarioWrite((api, id: number) =>
      api.post<Json>(`${one(scope, id)}known-answer/`, {}, { query }).then(readScenario),
    ),
    addRisk: useScenarioWrite(
      (
        api,
        { scenarioId, parentRisk, riskType }: { scenarioId: number; parentRisk: number | null; riskType: string },
      ) => api.post(`${one(scope, scenarioId)}risks/`, { parent_risk: parentRisk, risk_type: riskType }, { query }),
    ),
    removeRisk: useScenarioWrite((api, { scenarioId, riskId }: { scenarioId: number; riskId: number }) =>
      api.delete(riskPath(scope, scenarioId, riskId), { query }),
    ),
    saveRiskState: useScenarioWrite(
      (
        api,
        {
          scenarioId,
          riskId,
          state,
        }: { scenarioId: number; riskId: number; state: Pick<RiskNode, 'field_answers' | 'items'> },
      ) => api.put(riskPath(scope, scenarioId, riskId), { risk_state: state }, { query }),
    ),
    addItem: useScenarioWrite(
      (api, { scenarioId, riskId, itemName }: { scenarioId: number; riskId: number; itemName: string }) =>
        api.post(`${riskPath(scope, scenarioId, riskId)}items/`, { item_name: itemName }, { query }),
    ),
    removeItem: useScenarioWrite(
      (api, { scenarioId, riskId, itemName }: { scenarioId: number; riskId: number; itemName: string }) =>
        api.delete(`${riskPath(scope, scenarioId, riskId)}items/${encodeURIComponent(itemName)}/`, { query }),
    ),
  };
}

/** POST {s}/rate/: called through the latest-only gate, so it takes the gate's signal. */
export async function rateScenario(api: ApiClient, scope: ScenarioScope, id: number, signal: AbortSignal) {
  return readRating(await api.post(`${one(scope, id)}rate/`, {}, { query: versionQuery(scope), signal }));
}

export interface AnswerCheck {
  valid: boolean;
  message: string | null;
}

export async function validateAnswer(
  api: ApiClient,
  scope: ScenarioScope,
  scenarioId: number,
  riskId: number,
  field: string,
  answer: Answer,
): Promise<AnswerCheck> {
  const body = asRecord(
    await api.post(
      `${riskPath(scope, scenarioId, riskId)}fields/${encodeURIComponent(field)}/validate-answer/`,
      { answer },
      { query: versionQuery(scope) },
    ),
  );
  return { valid: body.valid === true, message: str(body.message) };
}

/* ---- The risk-type definitions the tree and the risk-state form are built from. ---- */

export interface FieldDef {
  name: string;
  label: string;
  type: 'date' | 'boolean' | 'string' | 'number' | 'enum' | 'computed';
  options: { value: string; label: string }[];
  default: string | null;
}

export interface ItemDef {
  name: string;
  label: string;
  presence: string;
}

export interface RiskTypeDef {
  id: number;
  name: string;
  label: string;
  parentName: string | null;
  parentId: number | null;
}

export function readRiskTypes(body: unknown): RiskTypeDef[] {
  const all: RiskTypeDef[] = [];
  const visit = (entry: unknown, parent: { id: number; name: string } | null) => {
    const record = asRecord(entry);
    const parentValue = pick(record, 'parentRiskType', 'parent_risk_type', 'parent');
    const parentRecord = asRecord(parentValue);
    const def: RiskTypeDef = {
      id: num(record.id) ?? 0,
      name: str(record.name) ?? '',
      label: str(record.label) ?? str(record.name) ?? '',
      parentId:
        num(parentRecord.id) ??
        num(pick(record, 'parent_risk_type_id', 'parentRiskTypeId')) ??
        (typeof parentValue === 'number' ? parentValue : null) ??
        parent?.id ??
        null,
      parentName:
        str(parentRecord.name) ?? (typeof parentValue === 'string' ? parentValue : null) ?? parent?.name ?? null,
    };
    all.push(def);
    for (const child of listOf(pick(record, 'children', 'riskTypes', 'risk_types'))) visit(child, def);
  };
  for (const entry of listOf(body)) visit(entry, null);
  // Fill parent names from ids when the server sent only ids.
  for (const def of all)
    if (def.parentName === null && def.parentId !== null)
      def.parentName = all.find((t) => t.id === def.parentId)?.name ?? null;
  return all;
}

const FIELD_TYPES = ['date', 'boolean', 'string', 'number', 'enum', 'computed'] as const;

export function readFields(body: unknown): FieldDef[] {
  return listOf(body).map((entry) => {
    const record = asRecord(entry);
    const typeValue = pick(record, 'type');
    const typeName = str(asRecord(typeValue).name) ?? str(typeValue) ?? 'string';
    return {
      name: str(record.name) ?? '',
      label: str(record.label) ?? str(record.name) ?? '',
      type: (FIELD_TYPES as readonly string[]).includes(typeName) ? (typeName as FieldDef['type']) : 'string',
      options: listOf(record.options).map((option) => {
        const o = asRecord(option);
        const value = str(o.value) ?? str(option) ?? '';
        return { value, label: str(o.label) ?? value };
      }),
      default: str(pick(record, 'default', 'default_value', 'defaultValue')),
    };
  });
}

export function readItems(body: unknown): ItemDef[] {
  return listOf(body).map((entry) => {
    const record = asRecord(entry);
    return {
      name: str(record.name) ?? '',
      label: str(record.label) ?? str(record.name) ?? '',
      presence: str(record.presence) ?? 'optional',
    };
  });
}

const riskTypesPath = (productId: number) => `/lines/products/${productId}/risk-types/`;

export function useRiskTypes(scope: ScenarioScope) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'risk-types', scope],
    queryFn: async ({ signal }) =>
      readRiskTypes(await api.get(riskTypesPath(scope.productId), { query: versionQuery(scope), signal })),
  });
}

export function useRiskTypeDefinition(scope: ScenarioScope, riskTypeId: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'risk-type-definition', scope, riskTypeId],
    enabled: riskTypeId !== null,
    queryFn: async ({ signal }) => {
      const path = `${riskTypesPath(scope.productId)}${riskTypeId}/`;
      const [fields, items] = await Promise.all([
        api.get(`${path}risk-fields/`, { query: versionQuery(scope), signal }),
        api.get(`${path}risk-items/`, { query: versionQuery(scope), signal }),
      ]);
      return { fields: readFields(fields), items: readItems(items) };
    },
  });
}
