import { Badge, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { DataTable, statusLabel } from '@atrium/sdk';
import { transactionTypeLabels } from '../lines-labels.js';
import type { TableRead, Worksheet, WorksheetInput, WorksheetLine, WorksheetRisk } from '@atrium/rating';

/**
 * A rating's worksheet, readable line by line: the term (days, factor, term / fully earned / pro-rata
 * premium), then per risk (parents before children) every computed field and calculation with the
 * formula, what it read (fields, calculations, limits…), the rate-table rows it looked up, and its
 * result before and after rounding. Row numbers are shown 1-based, as the rate-table grid numbers them.
 */
export function describeInput(input: WorksheetInput): string {
  const kind: Record<WorksheetInput['kind'], string> = {
    field: 'field',
    ancestor_field: 'parent field',
    calculation: 'calculation',
    limit: 'limit',
    deductible: 'deductible',
    item: 'has item',
    children: 'children',
  };
  return `${kind[input.kind]} ${input.name} = ${input.value}`;
}

export function describeTableRead(read: TableRead): string {
  const keys = Object.entries(read.keys)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  const head = `${read.table}(${keys})`;
  if (read.interpolation) {
    const { lower, upper, weight, column } = read.interpolation;
    return (
      `${head} → ${read.value}, interpolated on ${column} between row ${lower.row + 1} ` +
      `(${lower.x} → ${lower.value}) and row ${upper.row + 1} (${upper.x} → ${upper.value}), weight ${weight}`
    );
  }
  if (read.usedDefault) return `${head} → ${read.value} (no row matched: the table's default)`;
  return `${head} → row ${(read.row ?? 0) + 1}: ${read.value}`;
}

/** How the shown result came about, when it is not simply the value (rounded, or skipped). */
export function describeRounding(line: WorksheetLine): string | null {
  if (line.skipped === 'item_absent') return `skipped: the risk does not have the item ${line.item ?? ''}`.trim();
  if (line.round && line.unrounded !== line.value)
    return `from ${line.unrounded}, rounded to ${line.round.places} places ${line.round.mode ?? 'half-up'}`;
  return null;
}

export function describeResult(line: WorksheetLine): string {
  if (line.skipped === 'item_absent') return `0 (skipped: the risk does not have the item ${line.item ?? ''})`.trim();
  if (line.round && line.unrounded !== line.value)
    return `${line.value} (from ${line.unrounded}, rounded to ${line.round.places} places ${line.round.mode ?? 'half-up'})`;
  return line.value;
}

function LineRow({ line, kind }: { line: WorksheetLine; kind: 'calculation' | 'computed field' }) {
  return (
    <Table.Tr aria-label={`Worksheet line ${line.name}`} data-worksheet-line={line.name}>
      <Table.Td>
        <Text fw={600} size="sm">
          {line.name}
        </Text>
        <Text size="xs" c="dimmed">
          {kind}
          {line.item ? ` · item ${line.item}` : ''}
        </Text>
      </Table.Td>
      <Table.Td style={{ minWidth: 220 }}>
        <Code block style={{ whiteSpace: 'pre-wrap' }}>
          {line.formula}
        </Code>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {line.inputs.map((input, i) => (
            <Text key={i} size="xs">
              {describeInput(input)}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {line.tables.map((read, i) => (
            <Text key={i} size="xs">
              {describeTableRead(read)}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
        {/* The value alone, on one line; how it was rounded (or why skipped) underneath, smaller. */}
        <Text size="sm" ff="monospace" fw={600} aria-label={`Result of ${line.name}`}>
          {line.skipped === 'item_absent' ? '0' : line.value}
        </Text>
        {describeRounding(line) ? (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'normal', minWidth: 160 }}>
            {describeRounding(line)}
          </Text>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

function RiskSection({ risk }: { risk: WorksheetRisk }) {
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Title order={6}>{risk.path}</Title>
        {risk.premium !== null && <Badge variant="light">Premium {risk.premium}</Badge>}
      </Group>
      <DataTable label={`Worksheet ${risk.path}`} striped verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Calculation</Table.Th>
            <Table.Th>Formula</Table.Th>
            <Table.Th>Inputs</Table.Th>
            <Table.Th>Rate-table rows</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {risk.computedFields.map((line) => (
            <LineRow key={`f:${line.name}`} line={line} kind="computed field" />
          ))}
          {risk.calculations.map((line) => (
            <LineRow key={`c:${line.name}`} line={line} kind="calculation" />
          ))}
        </Table.Tbody>
      </DataTable>
      {risk.children.map((child) => (
        <RiskSection key={child.path} risk={child} />
      ))}
    </Stack>
  );
}

export function WorksheetView({ worksheet }: { worksheet: Worksheet }) {
  const term = worksheet.term;
  return (
    <Stack gap="sm" aria-label="Worksheet">
      {term && (
        <Text size="sm" aria-label="Term">
          {statusLabel(transactionTypeLabels, term.transactionType)} · {term.termStart} to {term.termEnd} · effective{' '}
          {term.effectiveDate} · {term.daysInForce} of {term.termDays} days (factor {term.factor}) · term premium{' '}
          {term.termPremium} · fully earned {term.fullyEarnedPremium} · pro-rata {term.proRataPremium}
          {term.returnPremium !== undefined ? ` · return ${term.returnPremium}` : ''}
        </Text>
      )}
      {worksheet.root && <RiskSection risk={worksheet.root} />}
    </Stack>
  );
}
