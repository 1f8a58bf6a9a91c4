import { Anchor, Button, Card, Grid, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useHostServices } from '@atrium/sdk';
import { num } from '../catalog/api-shared.js';
import { latestVersion, useLineWithProducts, versionName, type Product } from '../catalog/lines-api.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { flattenRiskTypes, useRiskTypes, type RiskType } from '../catalog/risk-types-api.js';
import { selectVersion } from '../catalog/selection.js';
import { CatalogTree, type CatalogTreeNode } from '../components/catalog-tree.js';
import { DifferencesView } from '../components/differences-view.js';
import { ExportsView } from '../components/exports-view.js';
import { MappingView } from '../components/mapping-view.js';
import { ProductFormModal } from '../components/product-form.js';
import { ProductSettingsCard } from '../components/product-settings.js';
import { SequencesView } from '../components/sequences-view.js';
import {
  ErrorAlert,
  InheritanceBadge,
  readOnlyReason,
  ReadOnlyNotice,
  useCanWrite,
  VersionStatusBadge,
} from '../components/shared.js';
import { VersionActions } from '../components/version-actions.js';
import { linesSearchRoute, riskTypeDetailsRoute } from '../routes.js';

const ScenariosPanel = lazy(() => import('../scenarios/scenarios-panel.js'));

/**
 * lines:line-overview — a line's product tree (products, child products, versions), the selected
 * version's actions and its risk types, differences, mapping, exports and scenarios.
 * Query: `version_id` selects the version; `addProduct` opens the add-product form.
 */
export default function LineOverviewPage() {
  const { lineName = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const versionId = num(searchParams.get('version_id'));
  const adding = searchParams.has('addProduct');
  const data = useLineWithProducts(lineName);
  const canAddProduct = useCanWrite(LINES_RESOURCES.product, 'create');
  const services = useHostServices();
  const [tab, setTab] = useState<string | null>('risk-types');

  const setQuery = (change: Record<string, string | null>) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(change)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });

  const line = data.data?.line ?? null;
  const products = data.data?.products ?? [];
  const selected = selectVersion(line, products, versionId);
  const version = selected?.version ?? null;
  const riskTypes = useRiskTypes(selected?.product.id ?? null, version?.id ?? null);

  if (data.isPending) return <Loader role="status" aria-label="Loading line" />;
  if (data.isSuccess && !line)
    return (
      <Stack>
        <Title order={1}>{lineName}</Title>
        <Text>There is no line named '{lineName}'.</Text>
        <Anchor component={Link} to={linesSearchRoute.link({})}>
          Back to lines
        </Anchor>
      </Stack>
    );

  const productNodes = (list: Product[]): CatalogTreeNode[] =>
    list.map((product) => ({
      id: `product-${product.id}`,
      label: product.label ?? product.name,
      // A product opens on its latest version.
      onOpen: () => {
        const latest = latestVersion(product);
        if (latest) setQuery({ version_id: String(latest.id) });
      },
      children: [
        ...[...product.versions]
          .sort((a, b) => b.id - a.id)
          .map((v): CatalogTreeNode => ({
            id: `version-${v.id}`,
            label: `Version ${versionName(v)}`,
            extra: <VersionStatusBadge status={v.status} />,
            active: v.id === version?.id,
            onOpen: () => setQuery({ version_id: String(v.id) }),
          })),
        ...productNodes(product.children),
      ],
    }));

  const riskTypeNodes = (list: RiskType[]): CatalogTreeNode[] =>
    list.map((type) => ({
      id: `risk-type-${type.id}`,
      label: type.label || type.name,
      extra: <InheritanceBadge status={type.inheritanceStatus} />,
      children: riskTypeNodes(type.children),
      onOpen: () =>
        selected &&
        services.navigate(
          riskTypeDetailsRoute.link(
            { lineName, productName: selected.product.name, riskTypeName: type.name },
            { version_id: version?.id },
          ),
        ),
    }));

  const reason = readOnlyReason(version);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{line?.label ?? lineName}</Title>
        {canAddProduct && line && <Button onClick={() => setQuery({ addProduct: '1' })}>Add product</Button>}
      </Group>
      <ErrorAlert error={data.error} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder>
            <Title order={3} size="h4" mb="xs">
              Products
            </Title>
            {products.length ? (
              <CatalogTree data={productNodes(products)} label="Product tree" />
            ) : (
              <Text c="dimmed">This line has no products yet.</Text>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          {selected && version ? (
            <Stack>
              <VersionActions
                product={selected.product}
                version={version}
                onSelectVersion={(id) => setQuery({ version_id: id === null ? null : String(id) })}
              />
              <ProductSettingsCard product={selected.product} />
              <ReadOnlyNotice reason={reason} />
              <Tabs value={tab} onChange={setTab} keepMounted={false}>
                <Tabs.List>
                  <Tabs.Tab value="risk-types">Risk types</Tabs.Tab>
                  <Tabs.Tab value="differences">Differences</Tabs.Tab>
                  <Tabs.Tab value="mapping">Mapping</Tabs.Tab>
                  <Tabs.Tab value="exports">Exports</Tabs.Tab>
                  <Tabs.Tab value="sequences">Sequences</Tabs.Tab>
                  <Tabs.Tab value="scenarios">Scenarios</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="risk-types" pt="sm">
                  <ErrorAlert error={riskTypes.error} />
                  {riskTypes.isSuccess && riskTypes.data.length === 0 && <Text c="dimmed">No risk types.</Text>}
                  {riskTypes.data && riskTypes.data.length > 0 && (
                    <CatalogTree label="Risk types" data={riskTypeNodes(riskTypes.data)} />
                  )}
                </Tabs.Panel>
                <Tabs.Panel value="differences" pt="sm">
                  <DifferencesView productId={selected.product.id} versionId={version.id} />
                </Tabs.Panel>
                <Tabs.Panel value="mapping" pt="sm">
                  <MappingView
                    productId={selected.product.id}
                    versionId={version.id}
                    readOnly={reason !== null}
                    riskTypeNames={flattenRiskTypes(riskTypes.data ?? []).map((t) => t.name)}
                  />
                </Tabs.Panel>
                <Tabs.Panel value="exports" pt="sm">
                  <ExportsView productId={selected.product.id} versionId={version.id} />
                </Tabs.Panel>
                <Tabs.Panel value="sequences" pt="sm">
                  <SequencesView productId={selected.product.id} versionId={version.id} readOnly={reason !== null} />
                </Tabs.Panel>
                <Tabs.Panel value="scenarios" pt="sm">
                  <Suspense fallback={<Loader size="sm" />}>
                    <ScenariosPanel productId={selected.product.id} versionId={version.id} readOnly={reason !== null} />
                  </Suspense>
                </Tabs.Panel>
              </Tabs>
            </Stack>
          ) : (
            <Text c="dimmed">Choose a product version in the tree.</Text>
          )}
        </Grid.Col>
      </Grid>
      {line && (
        <ProductFormModal
          opened={adding}
          lineId={line.id}
          products={products}
          onClose={() => setQuery({ addProduct: null })}
          onCreated={(id) => setQuery({ addProduct: null, version_id: id === null ? null : String(id) })}
        />
      )}
    </Stack>
  );
}
