import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { mapServerFormErrors, noSpace, required, useApiClient, useHostServices, validateForm } from '@atrium/sdk';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { riskTypeWrites, useRiskTypesChanged, type RiskType } from '../catalog/risk-types-api.js';
import { riskTypeDetailsRoute } from '../routes.js';
import { ConfirmButton, InheritanceBadge, ServerMessage, useCanWrite } from './shared.js';
import { FormModal, formErrorText } from './form-modal.js';
import { NameLabelInputs } from './name-label-inputs.js';
import { useWriteAction } from './use-write-action.js';

/** Risk types nest 7 levels (spec "Business constants": risk type tree depth 7). */
export const RISK_TYPE_TREE_DEPTH = 7;

function NameLabelModal({
  opened,
  title,
  initial,
  onClose,
  onSave,
}: {
  opened: boolean;
  title: string;
  initial: { name: string; label: string };
  onClose(): void;
  onSave(values: { name: string; label: string }): Promise<unknown>;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setValues(initial);
      setErrors({});
      setFormError(null);
    }
    // Reset when the dialog opens, not on every parent render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  async function submit() {
    const local = validateForm(values, {
      name: { label: 'Name', rules: [required(), noSpace()] },
      label: { label: 'Label', rules: [required()] },
    }) as Record<string, string>;
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await onSave({ name: values.name.trim(), label: values.label.trim() });
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      setErrors(mapped.fields);
      setFormError(formErrorText(mapped));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormModal opened={opened} onClose={onClose} title={title} formError={formError} busy={busy} onSave={submit}>
      <NameLabelInputs values={values} errors={errors} onChange={setValues} />
    </FormModal>
  );
}

/** The child risk types of a risk type: open, create, copy (with a new label and name), delete. */
export function ChildRiskTypesTab({
  lineName,
  productName,
  productId,
  versionId,
  riskType,
  depth,
  readOnly,
}: {
  lineName: string;
  productName: string;
  productId: number;
  versionId: number;
  riskType: RiskType;
  /** The open risk type's level (1 for a root risk type). */
  depth: number;
  readOnly: boolean;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useRiskTypesChanged();
  const canCreate = useCanWrite(LINES_RESOURCES.riskType, 'create') && !readOnly;
  const canDelete = useCanWrite(LINES_RESOURCES.riskType, 'delete') && !readOnly;
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'copy'; source: RiskType } | null>(null);
  const { message, act } = useWriteAction(changed);
  const link = (type: RiskType) =>
    riskTypeDetailsRoute.link({ lineName, productName, riskTypeName: type.name }, { version_id: versionId });

  return (
    <Stack>
      <Group justify="flex-end">
        {canCreate && (
          <Button variant="light" onClick={() => setDialog({ kind: 'copy', source: riskType })}>
            Copy {riskType.label || riskType.name}
          </Button>
        )}
        {canCreate && depth < RISK_TYPE_TREE_DEPTH && (
          <Button onClick={() => setDialog({ kind: 'create' })}>Add child risk type</Button>
        )}
      </Group>
      <ServerMessage message={message} />
      <Table aria-label="Child risk types">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Label</Table.Th>
            <Table.Th>Inheritance</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {riskType.children.map((child) => (
            <Table.Tr key={child.id}>
              <Table.Td>
                <Anchor component={Link} to={link(child)}>
                  {child.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{child.label}</Table.Td>
              <Table.Td>
                <InheritanceBadge status={child.inheritanceStatus} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end">
                  {canCreate && (
                    <Button size="xs" variant="subtle" onClick={() => setDialog({ kind: 'copy', source: child })}>
                      Copy
                    </Button>
                  )}
                  {canDelete && (
                    <ConfirmButton
                      label="risk type"
                      verb="delete"
                      color="red"
                      size="xs"
                      variant="subtle"
                      ariaLabel={`Delete ${child.name}`}
                      onConfirm={() =>
                        act(
                          () => riskTypeWrites.deleteRiskType(api, productId, versionId, child.id),
                          `Risk type '${child.name}' deleted.`,
                        )
                      }
                    >
                      Delete
                    </ConfirmButton>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {riskType.children.length === 0 && <Text c="dimmed">No child risk types.</Text>}
      <NameLabelModal
        opened={dialog !== null}
        title={dialog?.kind === 'copy' ? `Copy ${dialog.source.name}` : 'Add child risk type'}
        initial={
          dialog?.kind === 'copy'
            ? { name: `${dialog.source.name}_copy`, label: `${dialog.source.label} (copy)` }
            : { name: '', label: '' }
        }
        onClose={() => setDialog(null)}
        onSave={async (values) => {
          if (dialog?.kind === 'copy') {
            await riskTypeWrites.copyRiskType(api, productId, versionId, dialog.source.id, values);
            services.showToast({
              message: `Risk type '${dialog.source.name}' copied to '${values.name}'.`,
              kind: 'success',
            });
          } else {
            await riskTypeWrites.createRiskType(api, productId, versionId, {
              ...values,
              parent_risk_type_id: riskType.id,
            });
            services.showToast({ message: `Risk type '${values.name}' created.`, kind: 'success' });
          }
          await changed();
          setDialog(null);
        }}
      />
    </Stack>
  );
}
