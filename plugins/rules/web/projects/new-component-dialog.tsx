import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useApiClient } from '@atrium/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TYPE_LABELS, type ComponentJson, type EffectiveDateJson } from '../../shared/api-types.js';
import type { BrlSuggestions } from '../editor/brl-service.js';
import { serverMessage } from '../format.js';
import { COMPONENT_NAME, CREATABLE_TYPES, FOLDER, nameFromLabel, newComponentBody } from './component-text.js';

/**
 * Creates a component on a project's draft effective date: a rule, template or test with a first
 * text that parses (the author goes on in the editor), in a package and folder.
 */
export function NewComponentDialog(props: {
  projectId: number;
  projectLabel: string;
  date: EffectiveDateJson;
  packages: { id: number; name: string }[];
  onClose: () => void;
  onCreated: (created: ComponentJson) => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [type, setType] = useState<ComponentJson['component_type']>('rule');
  const [label, setLabel] = useState('');
  const [name, setName] = useState('');
  const [nameEdited, setNameEdited] = useState(false);
  const [packageId, setPackageId] = useState(props.packages[0] ? String(props.packages[0].id) : null);
  const [folder, setFolder] = useState('');
  const [appliesTo, setAppliesTo] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const riskTypes = useQuery({
    queryKey: ['rules', 'suggestions', String(props.projectId), props.date.id],
    queryFn: async () =>
      (
        await api.post<{ suggestions: BrlSuggestions }>('/rules/ontology/get-suggestions/', {
          project_id: props.projectId,
          effective_date_id: props.date.id,
        })
      ).suggestions,
    select: (s) => s.ontology?.riskTypes.map((r) => r.name) ?? [],
  });
  const risk = appliesTo ?? riskTypes.data?.[0] ?? 'policy';
  const effectiveName = nameEdited ? name : nameFromLabel(label);
  const errors = {
    label: label.trim() ? null : 'Give the component a label.',
    name: COMPONENT_NAME.test(effectiveName)
      ? null
      : 'A name is letters, digits and underscores, starting with a letter.',
    folder: FOLDER.test(folder.trim()) ? null : 'A folder is names separated by /.',
    package: packageId ? null : 'Choose a package.',
  };
  const valid = Object.values(errors).every((e) => e === null);
  const create = useMutation({
    mutationFn: () =>
      api.post<ComponentJson>(`/rules/brl-components/effective-date/${props.date.id}/`, {
        package_id: Number(packageId),
        name: effectiveName,
        label: label.trim(),
        folder: folder.trim(),
        component_type: type,
        body: newComponentBody(type, effectiveName, label.trim(), risk, props.date.effective_date),
      }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: ['rules'] });
      props.onCreated(created);
    },
  });
  const show = (key: keyof typeof errors) => (submitted ? errors[key] : null);
  return (
    <Modal opened onClose={props.onClose} title={`New component in ${props.projectLabel}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          if (valid) create.mutate();
        }}
      >
        <Stack>
          <Select
            label="Type"
            allowDeselect={false}
            data={CREATABLE_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
            value={type}
            onChange={(v) => v && setType(v as ComponentJson['component_type'])}
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label="Label"
            required
            value={label}
            error={show('label')}
            onChange={(e) => setLabel(e.currentTarget.value)}
          />
          <TextInput
            label="Name"
            required
            description="Letters, digits and underscores; used in the component's full name."
            value={effectiveName}
            error={show('name')}
            onChange={(e) => {
              setNameEdited(true);
              setName(e.currentTarget.value);
            }}
          />
          <Select
            label="Package"
            allowDeselect={false}
            data={props.packages.map((p) => ({ value: String(p.id), label: p.name }))}
            value={packageId}
            error={show('package')}
            onChange={setPackageId}
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label="Folder"
            description="Names separated by /; empty for the package's top level."
            value={folder}
            error={show('folder')}
            onChange={(e) => setFolder(e.currentTarget.value)}
          />
          <Select
            label={type === 'test' ? 'Risk tested' : 'Applies to'}
            allowDeselect={false}
            data={riskTypes.data ?? [risk]}
            value={risk}
            onChange={setAppliesTo}
            comboboxProps={{ withinPortal: false }}
          />
          {create.isError && (
            <Alert color="red">The component could not be created: {serverMessage(create.error)}</Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
