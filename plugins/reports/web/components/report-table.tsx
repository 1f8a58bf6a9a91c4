import { Table, Text } from '@mantine/core';
import { DataTable, formatCount, formatDate, formatDecimal, formatMoney } from '@atrium/sdk';
import type { ColumnKind, ReportResult } from '../../shared/report-definitions.js';

/** Rows shown on screen; the exports carry every row. */
export const SCREEN_ROWS = 500;

export function formatCell(value: string | number | null | undefined, kind: ColumnKind): string {
  if (value === null || value === undefined || value === '') return '–';
  switch (kind) {
    case 'money':
      return formatMoney(String(value));
    case 'date':
      return formatDate(String(value));
    case 'integer':
      return formatCount(Number(value));
    case 'percent':
      return `${formatDecimal(String(value), { places: 1 })}%`;
    default:
      return String(value);
  }
}

const numeric = (kind: ColumnKind) => kind === 'money' || kind === 'integer' || kind === 'percent';

export function ReportTable({ result }: { result: ReportResult }) {
  const shown = result.rows.slice(0, SCREEN_ROWS);
  return (
    <>
      <DataTable label={result.title}>
        <Table.Thead>
          <Table.Tr>
            {result.columns.map((column) => (
              <Table.Th key={column.key} ta={numeric(column.kind) ? 'right' : undefined}>
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((row, index) => (
            <Table.Tr key={index}>
              {result.columns.map((column) => (
                <Table.Td
                  key={column.key}
                  ta={numeric(column.kind) ? 'right' : undefined}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {formatCell(row[column.key], column.kind)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {result.totals && result.rows.length ? (
          <Table.Tfoot>
            <Table.Tr>
              {result.columns.map((column, index) => (
                <Table.Th key={column.key} ta={numeric(column.kind) ? 'right' : undefined}>
                  {index === 0
                    ? 'Total'
                    : column.kind === 'money' || column.kind === 'integer'
                      ? formatCell(result.totals?.[column.key] ?? null, column.kind)
                      : ''}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        ) : null}
      </DataTable>
      {result.rows.length > SCREEN_ROWS ? (
        <Text size="sm" c="dimmed">
          Showing the first {formatCount(SCREEN_ROWS)} of {formatCount(result.rows.length)} rows. The CSV and XLSX files
          have them all.
        </Text>
      ) : null}
    </>
  );
}
