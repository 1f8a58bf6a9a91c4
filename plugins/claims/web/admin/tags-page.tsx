import { Stack } from '@mantine/core';
import { PATHS } from '../api/paths.js';
import { CrudList } from './crud-list.js';

/** claims:admin-setup:tags — Tag Maintenance: the tags claims and exposures can carry. */
export default function TagsPage() {
  return (
    <Stack>
      <CrudList
        title="Tags"
        type="tag"
        resource="claims:lookup"
        listPath={PATHS.tags}
        itemPath={PATHS.tag}
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'label', label: 'Label', required: true },
          { name: 'expired', label: 'Expired', kind: 'boolean' },
        ]}
      />
    </Stack>
  );
}
