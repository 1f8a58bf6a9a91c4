import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Radio,
  Select,
  Stack,
  Stepper,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ErrorAlert, formatMoney, useApiClient, useHostServices } from '@atrium/sdk';
import { fromPromise } from 'xstate';
import { useLookup } from '../api/claims-api.js';
import { loadFnol, saveDraft, submitFnol } from '../api/fnol-api.js';
import { errorMessageOf, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { coverageLabel, fetchInForce, searchPolicies, useRevision } from '../api/policies-api.js';
import { fnolMachine, type FnolContext, type FnolEvent } from '../machines/fnol-machine.js';
import { FNOL_STEPS, FNOL_STEP_LABELS, type PolicySearchBy, type PolicySummary } from '../machines/fnol-types.js';
import { claimsFnolRoute, claimsLossDetailRoute } from '../routes.js';

type Send = (event: FnolEvent) => void;

/** The machine shows an error's message: make it the server's own words ('FNOL 12 not found.'). */
const serverWords = <T,>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    throw new Error(errorMessageOf(error));
  });

function PolicySearchStep({ context, send, busy }: { context: FnolContext; send: Send; busy: boolean }) {
  const [query, setQuery] = useState(context.query);
  const [searchBy, setSearchBy] = useState<PolicySearchBy>(context.searchBy);
  const chosen = context.draft.policy;
  // A policies-module policy waiting for its loss date (its revision is the one in force that day).
  const [picked, setPicked] = useState<PolicySummary | null>(null);
  return (
    <Stack>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (query.trim()) send({ type: 'SEARCH', query: query.trim(), searchBy });
        }}
      >
        <Group align="flex-end">
          <Radio.Group label="Search by" value={searchBy} onChange={(v) => setSearchBy(v as PolicySearchBy)}>
            <Group mt={4}>
              <Radio value="policyNumber" label="Number" />
              <Radio value="name" label="Primary Insured" />
            </Group>
          </Radio.Group>
          <TextInput label="Policy search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} w={260} />
          <Button type="submit" loading={busy}>
            Search
          </Button>
        </Group>
      </form>
      {context.searched && context.results.length === 0 && !context.error ? (
        <Text c="dimmed">No policies found.</Text>
      ) : null}
      {context.results.length > 0 ? (
        <Table aria-label="Policies">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Policy number</Table.Th>
              <Table.Th>Primary insured</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {context.results.map((policy) => (
              <Table.Tr
                key={`${policy.source}-${policy.id}`}
                bg={
                  chosen?.id === policy.id && chosen.source === policy.source
                    ? 'var(--mantine-color-blue-light)'
                    : undefined
                }
              >
                <Table.Td>
                  {policy.policy_number}{' '}
                  {policy.source === 'mock' ? (
                    <Badge size="sm" variant="light" color="gray">
                      Test policy
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{policy.primary_insured}</Table.Td>
                <Table.Td>{policy.policy_type}</Table.Td>
                <Table.Td>{policy.status}</Table.Td>
                <Table.Td>
                  {policy.source === 'policies' ? (
                    <Button size="xs" variant="light" onClick={() => setPicked(policy)}>
                      Select {policy.policy_number}
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => {
                        setPicked(null);
                        send({ type: 'SELECT_POLICY', policy });
                      }}
                    >
                      Select {policy.policy_number}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {picked ? <InForceChooser policy={picked} send={send} onDone={() => setPicked(null)} /> : null}
      {chosen?.source === 'policies' && !picked ? <InForceRevision policy={chosen} /> : null}
      {chosen?.source === 'policies' && !picked ? null : chosen ? (
        <Card withBorder>
          <Text fw={600}>
            Policy {chosen.policy_number} {chosen.primary_insured ? `· ${chosen.primary_insured}` : ''}
          </Text>
          <Select
            label="Policy revision"
            placeholder="Choose a revision"
            data={chosen.revisions.map((r) => ({
              value: r.id,
              label: `Revision ${r.number || r.id}${r.effective_date ? ` (${r.effective_date} – ${r.expiration_date ?? ''})` : ''}`,
            }))}
            value={context.draft.revisionId}
            onChange={(v) => v && send({ type: 'SELECT_REVISION', revisionId: v })}
            error={context.fieldErrors.revision}
          />
        </Card>
      ) : (
        <Text c="red" size="sm">
          {context.fieldErrors.policy}
        </Text>
      )}
    </Stack>
  );
}

/** The loss date for a policies-module policy: finds its revision in force that day, or says it was not. */
function InForceChooser({ policy, send, onDone }: { policy: PolicySummary; send: Send; onDone: () => void }) {
  const api = useApiClient();
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const find = async () => {
    setBusy(true);
    setError(null);
    try {
      const revision = await fetchInForce(api, policy.id, date);
      send({ type: 'SELECT_POLICY', policy: { ...policy, policy_date: date, revisions: [revision] } });
      onDone();
    } catch (caught) {
      setError(errorMessageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder>
      <Text fw={600}>
        Policy {policy.policy_number} {policy.primary_insured ? `· ${policy.primary_insured}` : ''}
      </Text>
      <Group align="flex-end">
        <TextInput
          type="date"
          label="Date of loss"
          value={date}
          onChange={(e) => setDate(e.currentTarget.value)}
          error={error}
        />
        <Button onClick={() => void find()} loading={busy} disabled={!date}>
          Use the revision in force
        </Button>
      </Group>
    </Card>
  );
}

/** The chosen policies-module policy: the revision in force on the loss date and its coverages. */
function InForceRevision({ policy }: { policy: PolicySummary }) {
  const revision = policy.revisions[0];
  return (
    <Card withBorder>
      <Text fw={600}>
        Policy {policy.policy_number} {policy.primary_insured ? `· ${policy.primary_insured}` : ''}
      </Text>
      <Text size="sm">
        Revision {revision?.number}
        {policy.policy_date ? ` in force on ${policy.policy_date}` : ''}
        {revision?.effective_date ? ` (term ${revision.effective_date} – ${revision.expiration_date ?? ''})` : ''}
      </Text>
      <Table aria-label="Coverages in force">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Coverage</Table.Th>
            <Table.Th>Limit</Table.Th>
            <Table.Th>Deductible</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(revision?.coverages ?? []).map((c) => (
            <Table.Tr key={c.coverage_type}>
              <Table.Td>{c.label}</Table.Td>
              <Table.Td>{c.limit ? formatMoney(c.limit) : '—'}</Table.Td>
              <Table.Td>{c.deductible ? formatMoney(c.deductible) : '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function ReportedByStep({ context, send }: { context: FnolContext; send: Send }) {
  const r = context.draft.reportedBy;
  const methods = useLookup(PATHS.reportedMethods);
  const update = (values: Partial<typeof r>) => send({ type: 'UPDATE_REPORTER', values });
  return (
    <Stack maw={480}>
      <TextInput
        label="Reported by"
        required
        value={r.name}
        onChange={(e) => update({ name: e.currentTarget.value })}
        error={context.fieldErrors.name}
      />
      <TextInput
        label="Relation to insured"
        value={r.relation}
        onChange={(e) => update({ relation: e.currentTarget.value })}
      />
      <TextInput label="Phone" value={r.phone} onChange={(e) => update({ phone: e.currentTarget.value })} />
      <TextInput label="Email" value={r.email} onChange={(e) => update({ email: e.currentTarget.value })} />
      <Select
        label="Reported method"
        clearable
        data={lookupOptionsFor(methods.data, context.draft.productId)}
        value={r.reported_method || null}
        onChange={(v) => update({ reported_method: v ?? '' })}
      />
    </Stack>
  );
}

/**
 * The lookup rows an FNOL of `productId` may name: the product's own and the global ones (no
 * product), as the server resolves them; expired rows are not offered. Without a product (a policy
 * type no product serves) every row is.
 */
export function lookupOptionsFor(rows: Flat[] | undefined, productId: string | null) {
  return (rows ?? [])
    .filter((row) => !row.expired)
    .filter((row) => !productId || !row.product_id || text(row.product_id) === productId)
    .map((row) => ({ value: text(row.name), label: text(row.label || row.name) }));
}

function LossDetailsStep({ context, send }: { context: FnolContext; send: Send }) {
  const l = context.draft.loss;
  const perils = useLookup(PATHS.perils);
  const categories = useLookup(PATHS.lossCategories);
  const update = (values: Partial<typeof l>) => send({ type: 'UPDATE_LOSS', values });
  const options = (rows: typeof perils.data) => lookupOptionsFor(rows, context.draft.productId);
  return (
    <Stack maw={560}>
      <TextInput
        label="Date of loss"
        type="date"
        required
        value={l.date_of_loss}
        onChange={(e) => update({ date_of_loss: e.currentTarget.value })}
        error={context.fieldErrors.date_of_loss}
      />
      <Textarea
        label="Loss description"
        required
        value={l.loss_description}
        onChange={(e) => update({ loss_description: e.currentTarget.value })}
        error={context.fieldErrors.loss_description}
      />
      <TextInput label="Loss address" value={l.line1} onChange={(e) => update({ line1: e.currentTarget.value })} />
      <Group grow>
        <TextInput label="City" value={l.city} onChange={(e) => update({ city: e.currentTarget.value })} />
        <TextInput label="State" value={l.state} onChange={(e) => update({ state: e.currentTarget.value })} />
        <TextInput label="Zip" value={l.zip} onChange={(e) => update({ zip: e.currentTarget.value })} />
      </Group>
      <Group grow>
        <Select
          label="Peril"
          clearable
          data={options(perils.data)}
          value={l.peril || null}
          onChange={(v) => update({ peril: v ?? '' })}
        />
        <Select
          label="Loss category"
          clearable
          data={options(categories.data)}
          value={l.loss_category || null}
          onChange={(v) => update({ loss_category: v ?? '' })}
        />
      </Group>
    </Stack>
  );
}

function ClaimantsStep({ context, send }: { context: FnolContext; send: Send }) {
  const [name, setName] = useState(context.draft.policy?.primary_insured ?? '');
  const [coverageType, setCoverageType] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  // A policies-module policy brings its in-force revision's coverages along; a mock one is read by id.
  const real = context.draft.policy?.source === 'policies' ? context.draft.policy : null;
  const revision = useRevision(real ? null : context.draft.revisionId);
  const coverages = real ? (real.revisions[0]?.coverages ?? []) : (revision.data?.coverages ?? []);
  const chosen = coverages.find((c) => c.coverage_type === coverageType);
  return (
    <Stack>
      <Table aria-label="Claimants and exposures">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Claimant</Table.Th>
            <Table.Th>Coverage</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {context.draft.claimants.map((c, index) => (
            <Table.Tr key={index}>
              <Table.Td>{c.claimant_name}</Table.Td>
              <Table.Td>{c.coverage || c.coverage_type}</Table.Td>
              <Table.Td>{c.description}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" color="red" onClick={() => send({ type: 'REMOVE_CLAIMANT', index })}>
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {revision.error ? <ErrorAlert error={revision.error} /> : null}
      <Group align="flex-end">
        <TextInput label="Claimant name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Select
          label="Coverage"
          placeholder={!real && revision.isPending ? 'Loading coverages…' : 'Choose a coverage'}
          data={coverages.map((c) => ({ value: c.coverage_type, label: coverageLabel(c) }))}
          value={coverageType}
          onChange={setCoverageType}
          nothingFoundMessage="The policy revision lists no coverages."
          w={420}
        />
        <TextInput
          label="Exposure description"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Button
          variant="light"
          disabled={!name.trim() || !chosen}
          onClick={() => {
            if (!chosen) return;
            send({
              type: 'ADD_CLAIMANT',
              claimant: {
                claimant_name: name.trim(),
                coverage_type: chosen.coverage_type,
                coverage: chosen.label || chosen.coverage_type,
                description,
              },
            });
            setDescription('');
            setCoverageType(null);
          }}
        >
          Add exposure
        </Button>
      </Group>
      {context.fieldErrors.claimants ? (
        <Text c="red" size="sm">
          {context.fieldErrors.claimants}
        </Text>
      ) : null}
    </Stack>
  );
}

function SubmitStep({ context }: { context: FnolContext }) {
  const { draft } = context;
  // The revision's own number, never its internal id.
  const revisionNumber = draft.policy?.revisions.find((r) => r.id === draft.revisionId)?.number;
  return (
    <Stack gap="xs">
      <Text>
        <b>FNOL:</b> {draft.fnolNumber}
      </Text>
      <Text>
        <b>Policy:</b> {draft.policy?.policy_number}
        {revisionNumber ? ` (revision ${revisionNumber})` : ''}
      </Text>
      <Text>
        <b>Reported by:</b> {draft.reportedBy.name} {draft.reportedBy.relation ? `(${draft.reportedBy.relation})` : ''}
      </Text>
      <Text>
        <b>Date of loss:</b> {draft.loss.date_of_loss}
      </Text>
      <Text>
        <b>Loss description:</b> {draft.loss.loss_description}
      </Text>
      <Text>
        <b>Exposures:</b>{' '}
        {draft.claimants.map((c) => `${c.claimant_name} – ${c.coverage || c.coverage_type}`).join('; ')}
      </Text>
    </Stack>
  );
}

/** The FNOL wizard: new (`/claims/fnol`) or resumed by number (`/claims/fnol/:fnolNumber`). */
export default function FnolPage() {
  const number = useParams().fnolNumber ?? null;
  // The wizard names its own draft in the address once saved; only an address the wizard did not
  // write itself (New FNOL, another FNOL's link) starts a fresh wizard.
  const shown = useRef({ generation: 0, number });
  if (number !== shown.current.number) shown.current = { generation: shown.current.generation + 1, number };
  return (
    <FnolWizard
      key={shown.current.generation}
      fnolNumber={number}
      onNamed={(named) => (shown.current = { ...shown.current, number: named })}
    />
  );
}

function FnolWizard({ fnolNumber, onNamed }: { fnolNumber: string | null; onNamed(number: string): void }) {
  const api = useApiClient();
  const navigate = useNavigate();
  const machine = useMemo(
    () =>
      fnolMachine.provide({
        actors: {
          searchPolicies: fromPromise(({ input, signal }) =>
            serverWords(searchPolicies(api, input.query, input.searchBy, signal)),
          ),
          loadFnol: fromPromise(({ input }) => serverWords(loadFnol(api, input.fnolNumber))),
          saveDraft: fromPromise(({ input }) => serverWords(saveDraft(api, input.draft, input.step))),
          submitClaim: fromPromise(({ input }) => serverWords(submitFnol(api, input.draft))),
        },
      }),
    [api],
  );
  const [state, send] = useMachine(machine, { input: { fnolNumber } });
  const { context } = state;

  // Once saved, the address names the draft so a reload resumes it.
  const savedNumber = context.draft.fnolNumber;
  useEffect(() => {
    if (savedNumber && savedNumber !== fnolNumber && state.matches('step')) {
      onNamed(savedNumber);
      navigate(claimsFnolRoute.link({ fnolNumber: savedNumber }), { replace: true });
    }
  }, [savedNumber, fnolNumber, navigate, state, onNamed]);
  const services = useHostServices();
  const submitted = state.matches('submitted');
  const toasted = useRef(false);
  useEffect(() => {
    if ((submitted || state.matches('opened')) && context.claimNumber) {
      if (submitted && !toasted.current) {
        toasted.current = true;
        services.showToast({ message: `Claim ${context.claimNumber} was submitted.`, kind: 'success' });
      }
      navigate(claimsLossDetailRoute.link({ claimNumber: context.claimNumber }));
    }
  }, [state, submitted, context.claimNumber, navigate, services]);

  if (state.matches('loading') || state.matches('start')) return <Text>Loading FNOL {fnolNumber}…</Text>;
  if (state.matches('loadFailed'))
    return (
      <Alert color="red" role="alert" title="FNOL">
        {context.error}
      </Alert>
    );

  const busy = state.matches({ step: 'saving' }) || state.matches({ step: 'submitting' });
  const active = FNOL_STEPS.indexOf(context.step);
  return (
    <Stack>
      <Title order={2}>{context.draft.fnolNumber ? `FNOL ${context.draft.fnolNumber}` : 'New FNOL'}</Title>
      <Stepper active={active} size="sm" allowNextStepsSelect={false}>
        {FNOL_STEPS.map((step) => (
          <Stepper.Step key={step} label={FNOL_STEP_LABELS[step]} />
        ))}
      </Stepper>
      <Title order={3}>{FNOL_STEP_LABELS[context.step]}</Title>
      {context.error ? (
        <Alert color="red" role="alert">
          {context.error}
        </Alert>
      ) : null}
      {context.step === 'policy-search' ? (
        <PolicySearchStep context={context} send={send} busy={state.matches({ step: 'searching' })} />
      ) : null}
      {context.step === 'reported-by' ? <ReportedByStep context={context} send={send} /> : null}
      {context.step === 'loss-details' ? <LossDetailsStep context={context} send={send} /> : null}
      {context.step === 'claimants' ? <ClaimantsStep context={context} send={send} /> : null}
      {context.step === 'submit-claim' ? <SubmitStep context={context} /> : null}
      <Group>
        {active > 0 ? (
          <Button variant="default" onClick={() => send({ type: 'BACK' })} disabled={busy}>
            Back
          </Button>
        ) : null}
        {context.step === 'submit-claim' ? (
          <Button onClick={() => send({ type: 'SUBMIT' })} loading={busy}>
            Submit Claim
          </Button>
        ) : (
          <Button onClick={() => send({ type: 'NEXT' })} loading={busy}>
            Next
          </Button>
        )}
      </Group>
    </Stack>
  );
}
