import { Stack, Tabs, Title } from '@mantine/core';
import { PATHS } from '../api/paths.js';
import { CrudList } from './crud-list.js';
import { MockPoliciesSection } from './mock-policies-section.js';

/**
 * claims:admin-setup:mock-policies — Mock Policies Maintenance: the policies the FNOL policy search
 * finds until the policies module provides real ones, with their policy types and statuses.
 */
export default function MockPoliciesPage() {
  return (
    <Stack>
      <Title order={1} size="h2">
        Mock Policies Maintenance
      </Title>
      <Tabs defaultValue="policies" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="policies">Policies</Tabs.Tab>
          <Tabs.Tab value="types">Policy types</Tabs.Tab>
          <Tabs.Tab value="statuses">Policy statuses</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="policies" pt="md">
          <MockPoliciesSection />
        </Tabs.Panel>
        <Tabs.Panel value="types" pt="md">
          <CrudList
            title="Policy types"
            type="policy-type"
            resource="claims:policy"
            listPath={PATHS.policyTypes}
            itemPath={PATHS.policyType}
            fields={[
              { name: 'name', label: 'Name', required: true },
              { name: 'label', label: 'Label', required: true },
            ]}
          />
        </Tabs.Panel>
        <Tabs.Panel value="statuses" pt="md">
          <CrudList
            title="Policy statuses"
            type="policy-status"
            resource="claims:policy"
            listPath={PATHS.policyStatuses}
            itemPath={PATHS.policyStatus}
            fields={[
              { name: 'name', label: 'Name', required: true },
              { name: 'label', label: 'Label', required: true },
            ]}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
