import { Badge } from '@mantine/core';
import { useState } from 'react';
import { RestorableList, RestorableRowName } from '../components/restorable-list.js';
import RateTableEditor from './rate-table-editor.js';
import { useRateTableActions, useRateTables, type RateTableScope } from './rate-tables-api.js';

export interface RateTablesPanelProps {
  productId: number;
  versionId: number;
  riskTypeId: number;
  readOnly: boolean;
}

/**
 * The rate tables of a risk type in a product version: the list (name, label, rows, validity) with
 * create, open, delete, restore and reorder, and the table editor when one is open. Everything is
 * read-only unless the version is a draft (`readOnly`); the server refuses such writes anyway.
 */
export default function RateTablesPanel({ productId, versionId, riskTypeId, readOnly }: RateTablesPanelProps) {
  const scope: RateTableScope = { productId, versionId, riskTypeId };
  const [open, setOpen] = useState<number | 'new' | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const tables = useRateTables(scope, showDeleted);
  const actions = useRateTableActions(scope);

  return (
    <RestorableList
      rows={tables}
      plural="rate tables"
      columns={[
        {
          header: 'Name',
          cell: (table) => (
            <RestorableRowName row={table} onOpen={table.deleted ? undefined : () => setOpen(table.id)} />
          ),
        },
        { header: 'Label', cell: (table) => table.label },
        { header: 'Rows', cell: (table) => table.rowsCount },
        {
          header: 'Validity',
          cell: (table) => (
            <Badge color={table.validityState === 'valid' ? 'green' : 'orange'} variant="light">
              {table.validityState || 'unknown'}
            </Badge>
          ),
        },
      ]}
      readOnly={readOnly}
      showDeleted={showDeleted}
      onShowDeleted={setShowDeleted}
      newLabel="New rate table"
      onNew={() => setOpen('new')}
      actions={actions}
      editor={
        open !== null && (
          <RateTableEditor
            scope={scope}
            tableId={open === 'new' ? null : open}
            readOnly={readOnly}
            onClose={() => setOpen(null)}
            onCreated={(id) => setOpen(id)}
          />
        )
      }
      multilineErrors
    />
  );
}
