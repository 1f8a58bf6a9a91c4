import { Stack } from '@mantine/core';
import { PATHS } from '../api/paths.js';
import { CrudList } from './crud-list.js';

/** Spec "Business constants": products are listed 100 a page. */
const PRODUCTS_PAGE_SIZE = 100;

/**
 * claims:admin-setup:products — Products Maintenance: the claims products (one per line) with their
 * name, label, policy type and whether they are a line. The service has no product delete.
 */
export default function ProductsPage() {
  return (
    <Stack>
      <CrudList
        title="Products"
        type="product"
        resource="claims:product"
        listPath={PATHS.productList}
        itemPath={PATHS.product}
        pageSize={PRODUCTS_PAGE_SIZE}
        deletable={false}
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'label', label: 'Label', required: true },
          { name: 'policy_type_name', label: 'Policy type' },
          { name: 'is_line', label: 'Is a line', kind: 'boolean' },
          { name: 'effective_from', label: 'Effective from', kind: 'date' },
          { name: 'effective_to', label: 'Effective to', kind: 'date' },
        ]}
      />
    </Stack>
  );
}
