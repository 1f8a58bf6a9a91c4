import { Alert, Stack, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { matchPath, useLocation, useNavigate, useParams } from 'react-router-dom';
import { LoadingState, useApiClient, useCan, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { claimsKeys, useClaimByNumber, type ClaimWithEtag } from '../api/claims-api.js';
import { errorMessageOf, flatten, text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { ClaimHeader } from '../components/claim-header.js';
import { setOpenClaim } from '../open-claim.js';
import { claimsExposureDetailsRoute, claimsRiskTypesRoute } from '../routes.js';
import { AccountingTab } from '../tabs/accounting-tab.js';
import { AttachmentsTab } from '../tabs/attachments-tab.js';
import { DetailsTab } from '../tabs/details-tab.js';
import { ExposureDetailsTab } from '../tabs/exposure-details-tab.js';
import { ExposuresTab } from '../tabs/exposures-tab.js';
import { InjuriesTab } from '../tabs/injuries-tab.js';
import { PartiesTab } from '../tabs/parties-tab.js';
import { RisksTab } from '../tabs/risks-tab.js';
import { workspaceTabs, type RiskTypeGroup } from '../workspace-tabs.js';

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
            <Tabs.Tab key={tab.key} value={tab.key}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {active === 'details' ? <DetailsTab value={value} onSaved={saved} onReload={reload} /> : null}
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
    </Stack>
  );
}
