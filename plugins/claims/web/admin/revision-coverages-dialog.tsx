import { ActionIcon, Alert, Autocomplete, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { mapServerFormErrors, useApiClient, useHostServices } from '@atrium/sdk';
import { useLookup } from '../api/claims-api.js';
import { actionErrorMessageOf, resourceBody, text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import type { PolicyCoverage, PolicyRevisionSummary } from '../machines/fnol-types.js';

/**
 * Mock Policies: a revision's coverages (coverage type, limit, deductible, risk), what FNOL and the
 * exposure dialog offer to claim under. Added, changed and removed here, saved as the revision's
 * whole list (PATCH revisions/{id}/ coverages). Limits and deductibles are decimal strings.
 */
type Row = Pick<PolicyCoverage, 'coverage_type' | 'limit' | 'deductible' | 'risk'> & { key: number };
type RowErrors = Partial<Record<'coverage_type' | 'limit' | 'deductible' | 'risk', string>>;

const MONEY = /^\d{1,12}(\.\d{1,2})?$/;
const COLUMNS = [
  ['coverage_type', 'Coverage type'],
  ['limit', 'Limit'],
  ['deductible', 'Deductible'],
  ['risk', 'Risk'],
] as const;

/** Client-side checks in the spec's words (the server checks again): type once each, amounts with 2 decimals. */
export function validateCoverages(rows: Row[]): RowErrors[] {
  return rows.map((row, i) => {
    const errors: RowErrors = {};
    const type = row.coverage_type.trim();
    if (!type) errors.coverage_type = 'This field is required.';
    else if (rows.findIndex((r) => r.coverage_type.trim() === type) !== i)
      errors.coverage_type = `Coverage ${type} is listed twice.`;
    for (const [name, label] of [
      ['limit', 'Limit'],
      ['deductible', 'Deductible'],
    ] as const) {
      const value = row[name].trim();
      if (!value) errors[name] = 'This field is required.';
      else if (!MONEY.test(value)) errors[name] = `${label} can not have more than 2 decimal places.`;
    }
    return errors;
  });
}

let nextKey = 1;

export function RevisionCoveragesDialog({
  policyNumber,
  revision,
  onClose,
}: {
  policyNumber: string;
  revision: PolicyRevisionSummary;
  onClose(): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const types = useLookup('/claims/coverage-types/');
  const [rows, setRows] = useState<Row[]>(() =>
    revision.coverages.map((c) => ({
      key: nextKey++,
      coverage_type: c.coverage_type,
      limit: c.limit,
      deductible: c.deductible,
      risk: c.risk,
    })),
  );
  const [errors, setErrors] = useState<RowErrors[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const typeOptions = [...new Set((types.data ?? []).map((t) => text(t.name)).filter(Boolean))];
  const title = `Coverages of ${policyNumber} revision ${revision.number}`;

  const change = (key: number, name: keyof RowErrors, value: string) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, [name]: value } : r)));

  const save = async () => {
    const found = validateCoverages(rows);
    setErrors(found);
    setFormError(null);
    if (found.some((e) => Object.keys(e).length > 0)) return;
    setBusy(true);
    try {
      await api.patch(
        PATHS.revision(revision.id),
        resourceBody(
          'policy-revision',
          {
            coverages: rows.map((r) => ({
              coverage_type: r.coverage_type.trim(),
              limit: r.limit.trim(),
              deductible: r.deductible.trim(),
              risk: r.risk.trim(),
            })),
          },
          { id: revision.id },
        ),
        { jsonApi: true, preventForbiddenRedirect: true },
      );
      await queryClient.invalidateQueries({ queryKey: ['claims-module', 'mock-policies'] });
      await queryClient.invalidateQueries({ queryKey: ['claims-module', 'policy-revision', revision.id] });
      services.showToast({ kind: 'success', message: `The coverages of ${policyNumber} were saved.` });
      onClose();
    } catch (error) {
      // Field errors arrive as coverages.<row>.<field>; anything else above the buttons.
      const mapped = mapServerFormErrors(error).fields;
      const byRow: RowErrors[] = rows.map(() => ({}));
      let placed = false;
      for (const [key, message] of Object.entries(mapped)) {
        const match = /^coverages\.(\d+)\.(coverage_type|limit|deductible|risk)$/.exec(key);
        if (match && byRow[Number(match[1])]) {
          byRow[Number(match[1])]![match[2] as keyof RowErrors] = message;
          placed = true;
        }
      }
      setErrors(byRow);
      if (!placed) setFormError(actionErrorMessageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={title} size="xl">
      <Stack>
        {rows.length === 0 ? <Text c="dimmed">This revision lists no coverages.</Text> : null}
        {rows.length > 0 ? (
          <Table aria-label={title} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map(([name, label]) => (
                  <Table.Th key={name}>{label}</Table.Th>
                ))}
                <Table.Th w={48}>
                  <span aria-hidden>&nbsp;</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, i) => (
                <Table.Tr key={row.key}>
                  {COLUMNS.map(([name, label]) => (
                    <Table.Td key={name}>
                      {name === 'coverage_type' ? (
                        <Autocomplete
                          aria-label={`${label} of coverage ${i + 1}`}
                          data={typeOptions}
                          value={row[name]}
                          onChange={(v) => change(row.key, name, v)}
                          error={errors[i]?.[name]}
                        />
                      ) : (
                        <TextInput
                          aria-label={`${label} of coverage ${i + 1}`}
                          inputMode={name === 'risk' ? undefined : 'decimal'}
                          value={row[name]}
                          onChange={(e) => change(row.key, name, e.currentTarget.value)}
                          error={errors[i]?.[name]}
                        />
                      )}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove coverage ${i + 1}`}
                      onClick={() => {
                        setRows((all) => all.filter((r) => r.key !== row.key));
                        setErrors([]);
                      }}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        <Group>
          <Button
            variant="light"
            onClick={() =>
              setRows((all) => [...all, { key: nextKey++, coverage_type: '', limit: '', deductible: '', risk: '' }])
            }
          >
            Add coverage
          </Button>
        </Group>
        {formError ? (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={busy}>
            Save coverages
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
