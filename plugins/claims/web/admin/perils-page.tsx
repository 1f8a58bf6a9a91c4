import { Stack } from '@mantine/core';
import { PATHS } from '../api/paths.js';
import { CrudList } from './crud-list.js';

/** claims:admin-setup:perils — the perils losses are reported under. */
export default function PerilsPage() {
  return (
    <Stack>
      <CrudList
        title="Perils"
        type="peril"
        resource="claims:lookup"
        listPath={PATHS.perils}
        itemPath={PATHS.peril}
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'label', label: 'Label', required: true },
          { name: 'code', label: 'Code' },
          { name: 'expired', label: 'Expired', kind: 'boolean' },
        ]}
      />
    </Stack>
  );
}
