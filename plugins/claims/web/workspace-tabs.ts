import {
  claimsAccountingRoute,
  claimsAttachmentsRoute,
  claimsInjurySummaryRoute,
  claimsLossDetailRoute,
  claimsExposuresRoute,
  claimsPartiesRoute,
  claimsRiskTypesRoute,
} from './routes.js';

/**
 * The claim workspace's tabs (spec "Claims screens"): Details, Exposures, Accounting, Parties,
 * Attachments always; Injuries only when the product has an injury type and the user may read
 * injuries; then one tab per risk type group, labelled with the plural of the group's label.
 */
export interface WorkspaceTab {
  key: string;
  label: string;
  /** The tab's route name (the `route` of `when` clauses while it is open). */
  routeName: string;
  to: string;
}

export interface RiskTypeGroup {
  id: string;
  name: string;
  label: string;
  order: number;
}

/** 'Vehicle' → 'Vehicles', 'Property' → 'Properties', 'Vehicles' stays 'Vehicles'. */
export function pluralize(label: string): string {
  // Already plural ('Vehicles', a group named in the plural): never 'Vehicleses'.
  if (/[^su]s$/i.test(label) && !/(is|ss|us)$/i.test(label)) return label;
  if (/[^aeiou]y$/i.test(label)) return `${label.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(label)) return `${label}es`;
  return `${label}s`;
}

export function workspaceTabs(
  claimNumber: string,
  options: { injuries: boolean; groups: RiskTypeGroup[] },
): WorkspaceTab[] {
  const p = { claimNumber };
  const tabs: WorkspaceTab[] = [
    { key: 'details', label: 'Details', routeName: claimsLossDetailRoute.name, to: claimsLossDetailRoute.link(p) },
    { key: 'exposures', label: 'Exposures', routeName: claimsExposuresRoute.name, to: claimsExposuresRoute.link(p) },
    {
      key: 'accounting',
      label: 'Accounting',
      routeName: claimsAccountingRoute.name,
      to: claimsAccountingRoute.link(p),
    },
    { key: 'parties', label: 'Parties', routeName: claimsPartiesRoute.name, to: claimsPartiesRoute.link(p) },
    {
      key: 'attachments',
      label: 'Attachments',
      routeName: claimsAttachmentsRoute.name,
      to: claimsAttachmentsRoute.link(p),
    },
  ];
  if (options.injuries)
    tabs.push({
      key: 'injuries',
      label: 'Injuries',
      routeName: claimsInjurySummaryRoute.name,
      to: claimsInjurySummaryRoute.link(p),
    });
  for (const group of [...options.groups].sort((a, b) => a.order - b.order))
    tabs.push({
      key: `risks:${group.name}`,
      label: pluralize(group.label || group.name),
      routeName: claimsRiskTypesRoute.name,
      to: claimsRiskTypesRoute.link({ claimNumber, risk_type_group_name: group.name }),
    });
  return tabs;
}
