import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  unmappedRequired,
  type FieldKind,
  type FieldMapping,
  type FormField,
  type FormMapping,
  type FormPreview,
} from '../../shared/forms.js';
import { formKeys, getForm, listDataPoints, messageOf, previewForm, publishForm, saveFormMapping } from '../api.js';
import { documentsRoute } from '../routes.js';

const KIND_LABELS: Record<FieldKind, string> = {
  text: 'Text',
  checkbox: 'Checkbox',
  radio: 'Radio buttons',
  dropdown: 'Dropdown',
  other: 'Not fillable',
};

const SOURCE_OPTIONS = [
  { value: 'data_point', label: 'Data point' },
  { value: 'constant', label: 'Constant' },
  { value: 'ignored', label: 'Ignored' },
];

/** The value control of one field's mapping: a data point, or a constant fit for the field's kind. */
function ValueInput({
  field,
  rule,
  paths,
  readOnly,
  onChange,
}: {
  field: FormField;
  rule: FieldMapping | undefined;
  paths: { value: string; label: string }[];
  readOnly: boolean;
  onChange: (rule: FieldMapping) => void;
}) {
  const label = `Value of ${field.name}`;
  if (!rule || rule.source === 'ignored') return <Text c="dimmed">—</Text>;
  if (rule.source === 'data_point') {
    return (
      <Select
        aria-label={label}
        placeholder="Choose a data point"
        data={paths}
        value={rule.path || null}
        onChange={(path) => onChange({ source: 'data_point', path: path ?? '' })}
        searchable
        disabled={readOnly}
        allowDeselect={false}
      />
    );
  }
  const choices =
    field.kind === 'checkbox'
      ? [
          { value: 'checked', label: 'Checked' },
          { value: 'unchecked', label: 'Unchecked' },
        ]
      : field.kind === 'radio' || field.kind === 'dropdown'
        ? field.options.map((o) => ({ value: o, label: o }))
        : null;
  if (choices) {
    return (
      <Select
        aria-label={label}
        placeholder="Choose a value"
        data={choices}
        value={rule.value || null}
        onChange={(value) => onChange({ source: 'constant', value: value ?? '' })}
        disabled={readOnly}
        allowDeselect={false}
      />
    );
  }
  return (
    <TextInput
      aria-label={label}
      value={rule.value}
      onChange={(e) => onChange({ source: 'constant', value: e.currentTarget.value })}
      disabled={readOnly}
    />
  );
}

/** The filled sample as a PDF in the page (Chromium's viewer), with the paths that did not resolve. */
function FilledPreview({ preview }: { preview: FormPreview }) {
  const url = useMemo(() => {
    const bytes = Uint8Array.from(atob(preview.pdf_base64), (c) => c.charCodeAt(0));
    return URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  }, [preview.pdf_base64]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <Stack gap="xs" data-testid="form-preview">
      <Group>
        <Text size="sm">
          Filled with the sample data: {preview.page_count === 1 ? '1 page' : `${preview.page_count} pages`}.
        </Text>
        <Anchor href={url} target="_blank" rel="noreferrer" size="sm">
          Open the filled PDF
        </Anchor>
      </Group>
      {preview.unresolved_paths.length > 0 ? (
        <Alert color="yellow" title="Data points without a value (their fields are left empty)">
          {preview.unresolved_paths.join(', ')}
        </Alert>
      ) : (
        <Text size="xs" c="dimmed">
          Every mapped data point had a value.
        </Text>
      )}
      <iframe title="Filled form" src={url} style={{ width: '100%', height: 600, border: '1px solid #ddd' }} />
    </Stack>
  );
}

export default function FormPage() {
  const { formId = '' } = useParams();
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canAuthor = useCan('documents:template', 'author').allowed;
  const canPublish = useCan('documents:template', 'publish').allowed;
  const form = useQuery({ queryKey: formKeys.one(formId), queryFn: () => getForm(api, formId) });
  const doc = form.data;
  const dataPoints = useQuery({
    queryKey: ['documents', 'data-points', doc?.subject],
    queryFn: () => listDataPoints(api, doc!.subject),
    enabled: doc !== undefined,
    staleTime: Infinity,
  });
  const paths = useMemo(
    () =>
      (dataPoints.data ?? [])
        .filter((p) => p.type !== 'list' && !p.path.includes('[]'))
        .map((p) => ({ value: p.path, label: `${p.path} (${p.sample_value})` })),
    [dataPoints.data],
  );
  const [mapping, setMapping] = useState<FormMapping>({});
  const [loadedFrom, setLoadedFrom] = useState<string | null>(null);
  if (doc && loadedFrom !== JSON.stringify(doc.mapping)) {
    setLoadedFrom(JSON.stringify(doc.mapping));
    setMapping(doc.mapping);
  }
  const editable = canAuthor && doc?.status === 'draft';
  const dirty = doc !== undefined && JSON.stringify(mapping) !== JSON.stringify(doc.mapping);
  const missing = doc ? unmappedRequired(doc.fields, mapping) : [];

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: formKeys.all });
  };
  const save = useMutation({
    mutationFn: () => saveFormMapping(api, doc!.id, mapping),
    onSuccess: async () => {
      await refresh();
      showToast({ message: 'Mapping saved.', kind: 'success' });
    },
  });
  const publish = useMutation({
    mutationFn: async () => {
      if (dirty) await saveFormMapping(api, doc!.id, mapping);
      return publishForm(api, doc!.id);
    },
    onSuccess: async () => {
      await refresh();
      showToast({ message: `"${doc!.name}" published.`, kind: 'success' });
    },
  });
  const preview = useMutation({ mutationFn: () => previewForm(api, doc!.id, editable ? mapping : undefined) });

  if (form.error) return <Alert color="red">{messageOf(form.error)}</Alert>;
  if (!doc) return <Loader size="sm" role="status" aria-label="Loading form" />;

  const setRule = (name: string, rule: FieldMapping | undefined) =>
    setMapping((current) => {
      const next = { ...current };
      if (rule) next[name] = rule;
      else delete next[name];
      return next;
    });
  const changeSource = (field: FormField, source: string | null) => {
    if (source === 'data_point') setRule(field.name, { source: 'data_point', path: '' });
    else if (source === 'constant') setRule(field.name, { source: 'constant', value: '' });
    else if (source === 'ignored') setRule(field.name, { source: 'ignored' });
    else setRule(field.name, undefined);
  };

  return (
    <Stack>
      <Anchor component={Link} to={documentsRoute.link({})} size="sm">
        ← All documents
      </Anchor>
      <Group>
        <Title order={1}>{doc.name}</Title>
        <Badge variant="light">Imported PDF form</Badge>
        <Badge color={doc.status === 'published' ? 'green' : 'yellow'} variant="light">
          {doc.status === 'published' ? 'Published' : 'Draft'}
        </Badge>
      </Group>
      {doc.description && <Text c="dimmed">{doc.description}</Text>}
      <Text size="sm" c="dimmed">
        {doc.file_name}, {doc.page_count === 1 ? '1 page' : `${doc.page_count} pages`}, {doc.fields.length} fields,
        filled from {doc.subject === 'claim' ? 'a claim' : 'a policy'}.
        {doc.status === 'published'
          ? ' A published form is frozen; import the form again for a new edition.'
          : ' Map each field to a data point or a constant, or ignore it.'}
      </Text>

      <Group justify="space-between">
        <Title order={2}>Field mapping</Title>
        <Group gap="xs">
          {editable && (
            <Button
              size="xs"
              variant="default"
              onClick={() => save.mutate()}
              disabled={!dirty}
              loading={save.isPending}
            >
              Save mapping
            </Button>
          )}
          <Button size="xs" variant="light" onClick={() => preview.mutate()} loading={preview.isPending}>
            Preview filled form
          </Button>
          {canPublish && doc.status === 'draft' && (
            <Button
              size="xs"
              onClick={() => publish.mutate()}
              disabled={missing.length > 0}
              loading={publish.isPending}
            >
              Publish
            </Button>
          )}
        </Group>
      </Group>
      {doc.status === 'draft' && missing.length > 0 && (
        <Alert color="yellow" data-testid="unmapped-required">
          Publishing is blocked until every required field is mapped: {missing.join(', ')}.
        </Alert>
      )}
      {save.error && <Alert color="red">{messageOf(save.error)}</Alert>}
      {publish.error && <Alert color="red">{messageOf(publish.error)}</Alert>}
      <Table striped aria-label="Form fields">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Required</Table.Th>
            <Table.Th>Filled from</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {doc.fields.map((field) => {
            const rule = mapping[field.name];
            return (
              <Table.Tr key={field.name}>
                <Table.Td>
                  <Code>{field.name}</Code>
                  {field.options.length > 0 && (
                    <Text size="xs" c="dimmed">
                      {field.options.join(' · ')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{KIND_LABELS[field.kind]}</Table.Td>
                <Table.Td>{field.required ? 'Required' : 'Optional'}</Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Source of ${field.name}`}
                    placeholder="Not mapped"
                    data={field.kind === 'other' ? SOURCE_OPTIONS.filter((o) => o.value === 'ignored') : SOURCE_OPTIONS}
                    value={rule?.source ?? null}
                    onChange={(source) => changeSource(field, source)}
                    disabled={!editable}
                    clearable
                  />
                </Table.Td>
                <Table.Td>
                  <ValueInput
                    field={field}
                    rule={rule}
                    paths={paths}
                    readOnly={!editable}
                    onChange={(next) => setRule(field.name, next)}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {preview.error && <Alert color="red">{messageOf(preview.error)}</Alert>}
      {preview.data && <FilledPreview preview={preview.data} />}
    </Stack>
  );
}
