import { Alert, Stack, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, type ComponentType } from 'react';
import { matchPath, useLocation, useNavigate, useParams } from 'react-router-dom';
import { LoadingState, useApiClient, useCan, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { claimsKeys, useClaimByNumber, type ClaimWithEtag } from '../api/claims-api.js';
import { errorMessageOf, flatten, text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { ClaimHeader } from '../components/claim-header.js';
import { setOpenClaim } from '../open-claim.js';
import { claimsExposureDetailsRoute, claimsRiskTypesRoute } from '../routes.js';
import { DetailsTab } from '../tabs/details-tab.js';
import { workspaceTabs, type RiskTypeGroup } from '../workspace-tabs.js';

/**
 * Every tab but Details loads on first use: evaluating all of them (the attachments tree with
 * react-arborist, the ledger's forms) was the longest task of the workspace's first load (issue 13,
 * Total Blocking Time). The open tab's chunk starts loading as the page renders, beside the claim's
 * request, and a tab's chunk is fetched as the pointer reaches its label.
 */
function lazyTab<M, K extends keyof M>(load: () => Promise<M>, name: K): { Tab: M[K]; preload: () => void } {
  let loading: Promise<M> | undefined;
  const start = () => (loading ??= load());
  const Tab = lazy(() => start().then((module) => ({ default: module[name] as ComponentType<any> })));
  return { Tab: Tab as M[K], preload: () => void start() };
}
const tabParts = {
  exposures: lazyTab(() => import('../tabs/exposures-tab.js'), 'ExposuresTab'),
  exposureDetails: lazyTab(() => import('../tabs/exposure-details-tab.js'), 'ExposureDetailsTab'),
  accounting: lazyTab(() => import('../tabs/accounting-tab.js'), 'AccountingTab'),
  parties: lazyTab(() => import('../tabs/parties-tab.js'), 'PartiesTab'),
  attachments: lazyTab(() => import('../tabs/attachments-tab.js'), 'AttachmentsTab'),
  injuries: lazyTab(() => import('../tabs/injuries-tab.js'), 'InjuriesTab'),
  risks: lazyTab(() => import('../tabs/risks-tab.js'), 'RisksTab'),
};
const { Tab: ExposuresTab } = tabParts.exposures;
const { Tab: ExposureDetailsTab } = tabParts.exposureDetails;
const { Tab: AccountingTab } = tabParts.accounting;
const { Tab: PartiesTab } = tabParts.parties;
const { Tab: AttachmentsTab } = tabParts.attachments;
const { Tab: InjuriesTab } = tabParts.injuries;
const { Tab: RisksTab } = tabParts.risks;
/** The chunk a tab key needs (`risks:<group>` tabs share one). */
function preloadTab(key: string, exposureDetails = false) {
  if (exposureDetails) tabParts.exposureDetails.preload();
  const part = tabParts[(key.startsWith('risks:') ? 'risks' : key) as keyof typeof tabParts] as
    { preload: () => void } | undefined;
  part?.preload();
}

/** The product's injury type and risk type groups decide the optional tabs. */
function useProductShape(productId: string | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'product-shape', productId],
    enabled: !!productId,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource>>(PATHS.product(productId!), {
        jsonApi: true,
        signal,
        query: { include: 'risk_type_groups' },
      });
      const product = flatten(document.data);
      const groups: RiskTypeGroup[] = (document.included ?? [])
        .filter((r) => r.type === 'risk-type-group')
        .map((r) => {
          const g = flatten(r);
          return { id: g.id, name: text(g.name), label: text(g.label), order: Number(g.order ?? 0) };
        });
      const hasInjuryType = !!(product.injury_type || product.injury_type_id);
      return { hasInjuryType, groups };
    },
  });
}

/**
 * The claim workspace: the header and one tab per route (claims:loss-detail, claims:exposures,
 * claims:accounting, …). Every tab route loads this page; the route decides the tab.
 */
export default function ClaimWorkspacePage() {
  const { claimNumber = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const claim = useClaimByNumber(claimNumber);
  const product = useProductShape(claim.data?.claim.product_id);
  const canInjuries = useCan('claims:injury', 'read');

  useEffect(() => {
    setOpenClaim(claimNumber);
    return () => setOpenClaim(null);
  }, [claimNumber]);

  const tabs = useMemo(
    () =>
      workspaceTabs(claimNumber, {
        injuries: (product.data?.hasInjuryType ?? false) && canInjuries.allowed,
        groups: product.data?.groups ?? [],
      }),
    [claimNumber, product.data, canInjuries.allowed],
  );
  const exposureMatch = matchPath(claimsExposureDetailsRoute.path, location.pathname);
  const riskMatch = matchPath(claimsRiskTypesRoute.path, location.pathname);
  const active = exposureMatch
    ? 'exposures'
    : (tabs.find((t) => t.to === location.pathname)?.key ??
      (riskMatch ? `risks:${riskMatch.params.risk_type_group_name}` : 'details'));
  // The open tab's chunk loads while the claim is read, not after.
  preloadTab(active, !!exposureMatch);

  if (claim.isPending) return <LoadingState label={`Loading claim ${claimNumber}`} />;
  if (claim.error)
    return (
      <Alert color="red" role="alert" title="Claim">
        {errorMessageOf(claim.error)}
      </Alert>
    );
  const value = claim.data;
  const saved = (next: ClaimWithEtag) => queryClient.setQueryData(claimsKeys.claim(claimNumber), next);
  const reload = () => void claim.refetch();

  return (
    <Stack>
      <ClaimHeader value={value} onSaved={saved} onReload={reload} />
      <Tabs value={active} onChange={(key) => navigate(tabs.find((t) => t.key === key)?.to ?? location.pathname)}>
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab
              key={tab.key}
              value={tab.key}
              onPointerEnter={() => preloadTab(tab.key)}
              onFocus={() => preloadTab(tab.key)}
            >
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {active === 'details' ? <DetailsTab value={value} onSaved={saved} onReload={reload} /> : null}
      <Suspense fallback={<LoadingState label="Loading the tab" />}>
        {active === 'exposures' && !exposureMatch ? <ExposuresTab claim={value.claim} /> : null}
        {exposureMatch ? (
          <ExposureDetailsTab
            claim={value.claim}
            claimantNumber={exposureMatch.params.claimant_number ?? ''}
            exposureNumber={exposureMatch.params.exposure_number ?? ''}
          />
        ) : null}
        {active === 'accounting' ? <AccountingTab claim={value.claim} /> : null}
        {active === 'parties' ? <PartiesTab claim={value.claim} /> : null}
        {active === 'attachments' ? <AttachmentsTab claim={value.claim} /> : null}
        {active === 'injuries' ? <InjuriesTab claim={value.claim} /> : null}
        {riskMatch ? (
          <RisksTab
            claim={value.claim}
            groupName={riskMatch.params.risk_type_group_name ?? ''}
            groupId={product.data?.groups.find((g) => g.name === riskMatch.params.risk_type_group_name)?.id ?? null}
            groupLabel={product.data?.groups.find((g) => g.name === riskMatch.params.risk_type_group_name)?.label}
          />
        ) : null}
      </Suspense>
    </Stack>
  );
}
