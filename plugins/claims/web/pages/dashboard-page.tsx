import { Button, Stack, Tabs } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  ErrorAlert,
  PageHeader,
  statusLabel,
  useCan,
  useSession,
  type ActiveFilters,
  type FilterDefinition,
} from '@atrium/sdk';
import IconFilePlus from '@tabler/icons-react/icons/IconFilePlus';
import IconShieldCheck from '@tabler/icons-react/icons/IconShieldCheck';
import IconUserShare from '@tabler/icons-react/icons/IconUserShare';
import { claimStatusLabels } from '../claims-labels.js';
import { MY_CLAIMS_PAGE_SIZE, PENDING_PAGE_SIZE, useClaimPage, type ClaimFilters } from '../api/claims-api.js';
import { CLAIM_STATUSES } from '../../shared/statuses.js';
import { ClaimTable } from '../components/claim-table.js';
import { FilterPanel } from '../components/filter-panel.js';
import { claimsAssignRoute, claimsFnolRoute } from '../routes.js';

export function claimFilterDefinitions(statuses: string[]): FilterDefinition[] {
  return [
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      options: statuses.map((s) => ({ name: s, label: statusLabel(claimStatusLabels, s) })),
    },
    { name: 'number', label: 'Number', type: 'form' },
    { name: 'loss_state', label: 'Loss state', type: 'form' },
    { name: 'loss_city', label: 'Loss city', type: 'form' },
    { name: 'loss_zip', label: 'Loss zip', type: 'form' },
  ];
}

const asFilters = (active: ActiveFilters): ClaimFilters =>
  Object.fromEntries(Object.entries(active).filter(([, v]) => typeof v === 'string' && v)) as ClaimFilters;

function ClaimList({ label, base, size }: { label: string; base: ClaimFilters; size: number }) {
  const [filters, setFilters] = useState<ActiveFilters>({});
  const [page, setPage] = useState(1);
  const definitions = useMemo(() => claimFilterDefinitions([...CLAIM_STATUSES]), []);
  const list = useClaimPage({ ...asFilters(filters), ...base }, page, size);
  return (
    <Stack gap="sm">
      <FilterPanel
        definitions={definitions}
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <ErrorAlert error={list.error} />
      <ClaimTable
        label={label}
        claims={list.data?.claims ?? []}
        page={page}
        pages={list.data?.pages ?? 1}
        onPage={setPage}
        loading={list.isPending}
      />
    </Stack>
  );
}

/** claims:dashboard — the adjuster's own claims, and the pending (unassigned) claims in pages of 20. */
export default function ClaimsDashboardPage() {
  const { user } = useSession();
  const canCreate = useCan('claims:claim', 'create');
  const canAssign = useCan('claims:claim', 'assign');
  return (
    <Stack>
      <PageHeader
        title="Claims"
        icon={IconShieldCheck}
        actions={
          <>
            {canAssign.allowed ? (
              <Button
                variant="default"
                component={Link}
                to={claimsAssignRoute.link({})}
                leftSection={<IconUserShare size={16} aria-hidden />}
              >
                Assign claims
              </Button>
            ) : null}
            {canCreate.allowed ? (
              <Button
                component={Link}
                to={claimsFnolRoute.link({})}
                leftSection={<IconFilePlus size={16} aria-hidden />}
              >
                New FNOL
              </Button>
            ) : null}
          </>
        }
      />
      <Tabs defaultValue="mine" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="mine">My claims</Tabs.Tab>
          <Tabs.Tab value="pending">Pending claims</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="mine" pt="md">
          <ClaimList label="My claims" base={{ adjuster_or_filer: user?.username ?? '' }} size={MY_CLAIMS_PAGE_SIZE} />
        </Tabs.Panel>
        <Tabs.Panel value="pending" pt="md">
          {/* Spec: the pending-claims list is pre-filtered has_adjuster false, 20 a page. */}
          <ClaimList label="Pending claims" base={{ has_adjuster: 'false' }} size={PENDING_PAGE_SIZE} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
