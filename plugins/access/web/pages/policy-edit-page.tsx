import { Alert, Anchor, Button, Group, List, Loader, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  LoadingState,
  mapServerFormErrors,
  type ServerFormErrors,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import { ACCESS_API, useAccessChanged, usePolicy, type Policy, type ValidationResult } from '../access-api.js';
import { ConfirmDeleteButton, ErrorAlert } from '../components/shared.js';
import { accessPoliciesRoute, accessPolicyEditRoute, NEW_POLICY_ID } from '../routes.js';
import { StatusBadge } from '@atrium/sdk';
import { policyTypeLabels } from '../access-labels.js';

// Monaco (megabytes) loads with this page's own chunk, after the form shows.
const StatementsEditor = lazy(() => import('../editor/statements-editor.js'));

export const NEW_POLICY_TEMPLATE = `[
  {
    "sid": "ViewModule",
    "effect": "allow",
    "actions": ["ViewModule"],
    "resources": ["ui:claims"]
  }
]
`;

const VALIDATE_DELAY_MS = 400;

interface Draft {
  name: string;
  description: string;
  version: string;
  statements: string;
}

type ParsedStatements = { ok: true; value: unknown } | { ok: false; message: string };

function parseStatements(text: string): ParsedStatements {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `The statements are not valid JSON: ${(error as Error).message}` };
  }
}

const draftOf = (policy: Policy): Draft => ({
  name: policy.name,
  description: policy.description,
  version: policy.version,
  statements: `${JSON.stringify(policy.statements, null, 2)}\n`,
});

/** Pointers the server gives for the policy body; the editor holds only `/statements…`. */
function statementPointer(pointer: string): string | null {
  if (pointer === '/statements') return '';
  return pointer.startsWith('/statements/') ? pointer.slice('/statements'.length) : null;
}

/**
 * A policy: name, description, version, and its statements edited as JSON in Monaco, validated
 * while typing (JSON Schema in the editor, `POST policies/validations` below it). System policies
 * are read-only.
 */
export default function PolicyEditPage() {
  const { policyId = NEW_POLICY_ID } = useParams();
  const isNew = policyId === NEW_POLICY_ID;
  const id = isNew ? null : Number(policyId);
  const api = useApiClient();
  const services = useHostServices();
  const changed = useAccessChanged();
  const loaded = usePolicy(id);
  const canWrite = useCan('access:policy', isNew ? 'create' : 'update').allowed;
  const canDelete = useCan('access:policy', 'delete').allowed;

  const [draft, setDraft] = useState<Draft | null>(
    isNew ? { name: '', description: '', version: '0.0.0', statements: NEW_POLICY_TEMPLATE } : null,
  );
  const [validation, setValidation] = useState<ValidationResult | null>(null);
  const [serverErrors, setServerErrors] = useState<ServerFormErrors | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
  }, [loaded.data]);

  const readOnly = loaded.data?.type === 'system' || !canWrite;
  const parsed = useMemo(() => (draft ? parseStatements(draft.statements) : null), [draft]);

  // Inline validation: the server's validator judges the policy as it stands, without saving it.
  useEffect(() => {
    if (!draft || !parsed?.ok) {
      setValidation(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .post<ValidationResult>(
          `${ACCESS_API}/policies/validations`,
          {
            ...(id !== null ? { id } : {}),
            name: draft.name.trim() || 'Untitled',
            description: draft.description,
            version: draft.version,
            statements: parsed.value,
          },
          { signal: controller.signal },
        )
        .then(setValidation, (error: unknown) => {
          if ((error as { name?: string })?.name !== 'AbortError') setValidation(null);
        });
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, draft, id, parsed]);

  const statementErrors = (validation?.errors ?? []).filter((error) => statementPointer(error.pointer) !== null);
  const markers = useMemo(
    () => statementErrors.map((error) => ({ pointer: statementPointer(error.pointer)!, detail: error.detail })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [validation],
  );

  if (!isNew && (id === null || !Number.isInteger(id))) return <Alert color="red">Policy {policyId} not found.</Alert>;
  if (loaded.error) return <ErrorAlert error={loaded.error} />;
  if (!draft) return <LoadingState rows={6} label="Loading policy" />;

  const set = (field: keyof Draft) => (value: string) => {
    setDraft((current) => (current ? { ...current, [field]: value } : current));
    setServerErrors((current) => (current ? { ...current, fields: { ...current.fields, [field]: '' } } : current));
  };

  async function save() {
    if (!draft || !parsed?.ok) return;
    setSaving(true);
    setServerErrors(null);
    const body = {
      name: draft.name,
      description: draft.description,
      version: draft.version,
      statements: parsed.value,
    };
    try {
      const saved = isNew
        ? await api.post<Policy>(`${ACCESS_API}/policies`, body)
        : await api.put<Policy>(`${ACCESS_API}/policies/${id}`, body);
      await changed();
      services.showToast({ message: `Policy '${saved.name}' saved.`, kind: 'success' });
      if (isNew) services.navigate(accessPolicyEditRoute.link({ policyId: saved.id }));
    } catch (error) {
      setServerErrors(mapServerFormErrors(error));
    } finally {
      setSaving(false);
    }
  }

  const fieldError = (field: string) => serverErrors?.fields[field] || undefined;
  const saveStatementsError = serverErrors
    ? Object.entries(serverErrors.fields).find(([field, message]) => field.startsWith('statements') && message)
    : undefined;

  return (
    <Stack maw={960}>
      <Anchor component={Link} to={accessPoliciesRoute.link({})} size="sm">
        ← Policies
      </Anchor>
      <Group justify="space-between">
        <Title order={1}>{isNew ? 'New policy' : draft.name || 'Policy'}</Title>
        {loaded.data && <StatusBadge labels={policyTypeLabels} value={loaded.data.type} />}
      </Group>
      {loaded.data?.type === 'system' && (
        <Alert color="gray">System policies come with the installation and cannot be changed or deleted.</Alert>
      )}
      {serverErrors?.formError && (
        <Alert color="red" role="alert">
          {serverErrors.formError}
          {serverErrors.formDetails.length > 0 && <Text size="sm">{serverErrors.formDetails.join(' ')}</Text>}
        </Alert>
      )}
      <TextInput
        label="Name"
        required
        withAsterisk={false}
        readOnly={readOnly}
        value={draft.name}
        error={fieldError('name')}
        onChange={(event) => set('name')(event.currentTarget.value)}
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        readOnly={readOnly}
        value={draft.description}
        error={fieldError('description')}
        onChange={(event) => set('description')(event.currentTarget.value)}
      />
      <TextInput
        label="Version"
        description="MAJOR.MINOR.PATCH"
        readOnly={readOnly}
        value={draft.version}
        error={fieldError('version')}
        onChange={(event) => set('version')(event.currentTarget.value)}
      />
      <div>
        <Text fw={500} size="sm" mb={4}>
          Statements
        </Text>
        <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading editor" />}>
          <StatementsEditor
            value={draft.statements}
            onChange={set('statements')}
            readOnly={readOnly}
            markers={markers}
          />
        </Suspense>
      </div>
      <section aria-label="Validation">
        {parsed && !parsed.ok ? (
          <Alert color="red">{parsed.message}</Alert>
        ) : validation === null ? (
          <Text size="sm" c="dimmed">
            Checking…
          </Text>
        ) : validation.valid ? (
          <Text size="sm" c="green">
            The policy is valid.
          </Text>
        ) : (
          <Alert color="red" title="Validation">
            <List size="sm">
              {validation.errors.map((error, index) => (
                <List.Item key={index}>
                  <code>{error.pointer}</code> {error.detail}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        {saveStatementsError && (
          <Alert color="red" role="alert" mt="xs">
            {saveStatementsError[1]}
          </Alert>
        )}
      </section>
      <Group>
        {!readOnly && (
          <Button onClick={save} loading={saving} disabled={!parsed?.ok}>
            Save
          </Button>
        )}
        {!isNew && loaded.data?.type === 'custom' && canDelete && (
          <ConfirmDeleteButton
            label="policy"
            onConfirm={async () => {
              await api.delete(`${ACCESS_API}/policies/${id}`);
              await changed();
              services.showToast({ message: `Policy '${draft.name}' deleted.`, kind: 'success' });
              services.navigate(accessPoliciesRoute.link({}));
            }}
          />
        )}
      </Group>
    </Stack>
  );
}
