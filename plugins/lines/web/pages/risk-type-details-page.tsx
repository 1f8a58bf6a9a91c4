import { Anchor, Breadcrumbs, Card, Grid, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useHostServices } from '@atrium/sdk';
import { num } from '../catalog/api-shared.js';
import { useLineWithProducts, versionName } from '../catalog/lines-api.js';
import { flattenRiskTypes, useRiskTypes, type RiskType } from '../catalog/risk-types-api.js';
import { selectProductVersion } from '../catalog/selection.js';
import { CatalogTree, type CatalogTreeNode } from '../components/catalog-tree.js';
import { ChildRiskTypesTab } from '../components/child-risk-types-tab.js';
import { FieldsTab } from '../components/fields-tab.js';
import { ItemsTab } from '../components/items-tab.js';
import {
  ErrorAlert,
  InheritanceBadge,
  readOnlyReason,
  ReadOnlyNotice,
  VersionStatusBadge,
} from '../components/shared.js';
import { lineOverviewRoute, linesSearchRoute, parseRiskTypeHash, riskTypeDetailsRoute } from '../routes.js';

const RateTablesPanel = lazy(() => import('../rate-tables/rate-tables-panel.js'));
const CalculationsPanel = lazy(() => import('../calculations/calculations-panel.js'));

function depthOf(types: RiskType[], id: number): number {
  const all = flattenRiskTypes(types);
  let depth = 1;
  let current = all.find((t) => t.id === id);
  while (current?.parentRiskTypeId != null) {
    depth += 1;
    current = all.find((t) => t.id === current!.parentRiskTypeId);
  }
  return depth;
}

/**
 * lines:risk-type-details — one risk type of a product version: the risk-type tree on the side and
 * tabs for fields, items (with limits and deductibles), rate tables, calculations and child risk
 * types. The optional `hash` param picks the tab or opens a field; `version_id` picks the version.
 */
export default function RiskTypeDetailsPage() {
  const { lineName = '', productName = '', riskTypeName = '', hash } = useParams();
  const [searchParams] = useSearchParams();
  const services = useHostServices();
  const versionId = num(searchParams.get('version_id'));
  const data = useLineWithProducts(lineName);
  const selected = data.data ? selectProductVersion(data.data.products, productName, versionId) : null;
  const version = selected?.version ?? null;
  const riskTypes = useRiskTypes(selected?.product.id ?? null, version?.id ?? null);
  const riskType = flattenRiskTypes(riskTypes.data ?? []).find((t) => t.name === riskTypeName) ?? null;
  const { tab, field } = parseRiskTypeHash(hash);

  const linkTo = (name: string, hashValue?: string) =>
    riskTypeDetailsRoute.link(
      { lineName, productName, riskTypeName: name, hash: hashValue },
      { version_id: version?.id },
    );

  if (data.isPending || (selected && riskTypes.isPending))
    return <Loader role="status" aria-label="Loading risk type" />;

  const breadcrumbs = (
    <Breadcrumbs>
      <Anchor component={Link} to={linesSearchRoute.link({})}>
        Lines
      </Anchor>
      <Anchor component={Link} to={lineOverviewRoute.link({ lineName }, { version_id: version?.id })}>
        {data.data?.line?.label ?? lineName}
      </Anchor>
      <Text>{selected?.product.label ?? productName}</Text>
    </Breadcrumbs>
  );

  if (!selected || !version || !riskType)
    return (
      <Stack>
        {breadcrumbs}
        <ErrorAlert error={data.error ?? riskTypes.error} />
        <Text>
          {!selected
            ? `There is no product named '${productName}' in line '${lineName}'.`
            : `There is no risk type named '${riskTypeName}' in this version.`}
        </Text>
      </Stack>
    );

  const reason = readOnlyReason(version);
  const readOnly = reason !== null;
  const nodes = (list: RiskType[]): CatalogTreeNode[] =>
    list.map((type) => ({
      id: String(type.id),
      label: type.label || type.name,
      active: type.id === riskType.id,
      extra: <InheritanceBadge status={type.inheritanceStatus} />,
      children: nodes(type.children),
      onOpen: () => services.navigate(linkTo(type.name)),
    }));
  const panelProps = { productId: selected.product.id, versionId: version.id, riskTypeId: riskType.id, readOnly };

  return (
    <Stack>
      {breadcrumbs}
      <Group gap="xs">
        <Title order={1}>{riskType.label || riskType.name}</Title>
        <InheritanceBadge status={riskType.inheritanceStatus} />
      </Group>
      <Group gap="xs">
        <Text size="sm">
          {selected.product.label ?? selected.product.name} · version {versionName(version)}
        </Text>
        <VersionStatusBadge status={version.status} />
      </Group>
      <ReadOnlyNotice reason={reason} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder>
            <Title order={3} size="h5" mb="xs">
              Risk types
            </Title>
            <CatalogTree data={nodes(riskTypes.data ?? [])} label="Risk type tree" />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Tabs
            value={tab}
            keepMounted={false}
            onChange={(value) =>
              value && services.navigate(linkTo(riskType.name, value === 'fields' ? undefined : value))
            }
          >
            <Tabs.List>
              <Tabs.Tab value="fields">Fields</Tabs.Tab>
              <Tabs.Tab value="items">Items</Tabs.Tab>
              <Tabs.Tab value="rate-tables">Rate tables</Tabs.Tab>
              <Tabs.Tab value="calculations">Calculations</Tabs.Tab>
              <Tabs.Tab value="risk-types">Child risk types</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="fields" pt="sm">
              <FieldsTab {...panelProps} openField={field} />
            </Tabs.Panel>
            <Tabs.Panel value="items" pt="sm">
              <ItemsTab {...panelProps} />
            </Tabs.Panel>
            <Tabs.Panel value="rate-tables" pt="sm">
              <Suspense fallback={<Loader size="sm" />}>
                <RateTablesPanel {...panelProps} />
              </Suspense>
            </Tabs.Panel>
            <Tabs.Panel value="calculations" pt="sm">
              <Suspense fallback={<Loader size="sm" />}>
                <CalculationsPanel {...panelProps} />
              </Suspense>
            </Tabs.Panel>
            <Tabs.Panel value="risk-types" pt="sm">
              <ChildRiskTypesTab
                lineName={lineName}
                productName={productName}
                productId={selected.product.id}
                versionId={version.id}
                riskType={riskType}
                depth={depthOf(riskTypes.data ?? [], riskType.id)}
                readOnly={readOnly}
              />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
