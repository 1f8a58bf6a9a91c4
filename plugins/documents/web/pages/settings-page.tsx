import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
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
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  formKeys,
  listForms,
  messageOf,
  readDeclarationsSettings,
  saveDeclarationsSettings,
  templatesClient,
  type DeclarationsSettingsBody,
  type TemplateItem,
} from '../api.js';
import { documentsRoute } from '../routes.js';

/** A product slug in words (`personal_auto` → Personal Auto). */
export const lineTitle = (slug: string) => slug.replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

const SETTINGS_KEY = ['documents', 'settings', 'declarations'] as const;

/**
 * The declarations settings: each line's dec page template and the form rules that attach imported
 * forms to a line (until the rules module provides them). Publishers change them; others read.
 */
export default function SettingsPage() {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canEdit = useCan('documents:template', 'publish').allowed;
  const stored = useQuery({ queryKey: SETTINGS_KEY, queryFn: () => readDeclarationsSettings(api) });
  const templates = useQuery(templatesClient.allQuery(api));
  const forms = useQuery({ queryKey: formKeys.all, queryFn: () => listForms(api) });
  const [draft, setDraft] = useState<DeclarationsSettingsBody | null>(null);
  const [newLine, setNewLine] = useState('');
  const settings = draft ?? stored.data ?? null;
  const save = useMutation({
    mutationFn: () => saveDeclarationsSettings(api, settings!),
    onSuccess: async (saved) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      setDraft(null);
      showToast({ message: 'Declarations settings saved.', kind: 'success' });
    },
  });
  const error = stored.error ?? templates.error ?? forms.error;
  if (error) return <Alert color="red">{messageOf(error)}</Alert>;
  if (!settings || !templates.data || !forms.data) {
    return <Loader size="sm" role="status" aria-label="Loading settings" />;
  }
  const templateOptions = (templates.data as unknown as TemplateItem[])
    .filter((t) => t.subject === 'policy')
    .map((t) => ({ value: t.id, label: t.name }));
  const formOptions = forms.data
    .filter((f) => f.status === 'published' && f.subject === 'policy')
    .map((f) => ({ value: String(f.id), label: f.name }));
  const lines = [...new Set([...settings.declarations.map((d) => d.line), ...settings.form_rules.map((r) => r.line)])];
  const change = (next: DeclarationsSettingsBody) => setDraft(next);
  const rules = settings.form_rules;
  const setRule = (i: number, patch: Partial<(typeof rules)[number]>) =>
    change({ ...settings, form_rules: rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) });

  return (
    <Stack>
      <Anchor component={Link} to={documentsRoute.link({})} size="sm">
        ← All documents
      </Anchor>
      <Title order={1}>Declarations settings</Title>
      <Text c="dimmed" size="sm">
        A policy&apos;s declarations are its line&apos;s dec page followed by the forms attached to the line, merged
        into one PDF when the declaration is first asked for.
        {canEdit ? '' : ' You may read these settings but not change them.'}
      </Text>

      <Title order={2}>Dec page by line</Title>
      <Table striped aria-label="Dec page by line">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th>Dec page template</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {settings.declarations.map((d, i) => (
            <Table.Tr key={d.line}>
              <Table.Td>{lineTitle(d.line)}</Table.Td>
              <Table.Td>
                <Select
                  aria-label={`Dec page of ${lineTitle(d.line)}`}
                  data={templateOptions}
                  value={String(d.template_id)}
                  onChange={(v) =>
                    v &&
                    change({
                      ...settings,
                      declarations: settings.declarations.map((x, j) =>
                        j === i ? { ...x, template_id: Number(v) } : x,
                      ),
                    })
                  }
                  disabled={!canEdit}
                  allowDeselect={false}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canEdit && (
        <Group align="flex-end">
          <TextInput
            label="Line (product slug)"
            placeholder="personal_auto"
            value={newLine}
            onChange={(e) => setNewLine(e.currentTarget.value)}
          />
          <Button
            variant="default"
            disabled={!newLine.trim() || templateOptions.length === 0}
            onClick={() => {
              change({
                ...settings,
                declarations: [
                  ...settings.declarations,
                  { line: newLine.trim(), template_id: Number(templateOptions[0]!.value) },
                ],
              });
              setNewLine('');
            }}
          >
            Add a dec page
          </Button>
        </Group>
      )}

      <Title order={2}>Form rules</Title>
      <Text c="dimmed" size="sm">
        Where the Rules module has form-inclusion rules in force for a line, those rules decide the line&apos;s forms
        and the form rules below are not used for it; they decide for every other line.
      </Text>
      <Table striped aria-label="Form rules">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th>Form</Table.Th>
            <Table.Th>Only in state</Table.Th>
            <Table.Th>Suppress printing</Table.Th>
            <Table.Th>Always print on renewal</Table.Th>
            <Table.Th>Only with a mortgagee</Table.Th>
            {canEdit && <Table.Th>Remove</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rules.map((r, i) => {
            const name = formOptions.find((o) => o.value === String(r.imported_document_id))?.label ?? 'a form';
            return (
              <Table.Tr key={i}>
                <Table.Td>
                  <Select
                    aria-label={`Line of rule ${i + 1}`}
                    data={lines.map((l) => ({ value: l, label: lineTitle(l) }))}
                    value={r.line}
                    onChange={(v) => v && setRule(i, { line: v })}
                    disabled={!canEdit}
                    allowDeselect={false}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Form of rule ${i + 1}`}
                    data={formOptions}
                    value={String(r.imported_document_id)}
                    onChange={(v) => v && setRule(i, { imported_document_id: Number(v) })}
                    disabled={!canEdit}
                    allowDeselect={false}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={`State of rule ${i + 1}`}
                    placeholder="Every state"
                    value={r.state ?? ''}
                    onChange={(e) => setRule(i, { state: e.currentTarget.value.toUpperCase() || null })}
                    disabled={!canEdit}
                    w={90}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Suppress printing of ${name}`}
                    checked={r.suppress_printing}
                    onChange={(e) => setRule(i, { suppress_printing: e.currentTarget.checked })}
                    disabled={!canEdit}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Always print ${name} on renewal`}
                    checked={r.always_print_on_renewal}
                    onChange={(e) => setRule(i, { always_print_on_renewal: e.currentTarget.checked })}
                    disabled={!canEdit}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Print ${name} only with a mortgagee`}
                    checked={r.mortgagee_only}
                    onChange={(e) => setRule(i, { mortgagee_only: e.currentTarget.checked })}
                    disabled={!canEdit}
                  />
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove rule ${i + 1}`}
                      onClick={() => change({ ...settings, form_rules: rules.filter((_, j) => j !== i) })}
                    >
                      ✕
                    </ActionIcon>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {canEdit && (
        <Group>
          <Button
            variant="default"
            disabled={lines.length === 0 || formOptions.length === 0}
            onClick={() =>
              change({
                ...settings,
                form_rules: [
                  ...rules,
                  {
                    line: lines[0]!,
                    imported_document_id: Number(formOptions[0]!.value),
                    state: null,
                    suppress_printing: false,
                    always_print_on_renewal: false,
                    mortgagee_only: false,
                  },
                ],
              })
            }
          >
            Add a form rule
          </Button>
          <Button onClick={() => save.mutate()} disabled={draft === null} loading={save.isPending}>
            Save settings
          </Button>
        </Group>
      )}
      {save.error && <Alert color="red">{messageOf(save.error)}</Alert>}
    </Stack>
  );
}
