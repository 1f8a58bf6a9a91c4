import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useMatches, useParams } from 'react-router-dom';
import { useHostRuntime } from '../host-runtime-context.js';
import { classicLinkTarget, type ClassicLinkKind } from '../routing/classic-links.js';
import { classicClaimRoute, classicContactRoute, classicPolicyRoute } from '../routing/host-route-refs.js';
import { isHostRouteHandle } from '../routing/route-handle.js';
import NotFoundPage from './not-found-page.js';

const KIND_BY_ROUTE: Record<string, ClassicLinkKind> = {
  [classicPolicyRoute.name]: 'policy',
  [classicClaimRoute.name]: 'claim',
  [classicContactRoute.name]: 'contact',
};

/** The carrier's product slug (core carrier setting site/product-slug); `atrium` when none is stored. */
const DEFAULT_PRODUCT_SLUG = 'atrium';

function useProductSlug() {
  const runtime = useHostRuntime();
  return useQuery({
    queryKey: ['carrier', 'product-slug'],
    queryFn: async () => {
      const response = await fetch('/api/v2/settings/get_setting_value', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...runtime.requestHeaders() },
        body: JSON.stringify({ section: 'site', option: 'product-slug' }),
      });
      if (response.status === 404) return DEFAULT_PRODUCT_SLUG;
      if (!response.ok) throw new Error(`get_setting_value answered HTTP ${response.status}`);
      const value = ((await response.json()) as { data?: unknown }).data;
      return typeof value === 'string' && value ? value : DEFAULT_PRODUCT_SLUG;
    },
    staleTime: 5 * 60_000,
  });
}

/**
 * A classic link lands on its module route when its `{product}` is the carrier's product slug;
 * any other slug is the normal not-found page.
 */
export default function ClassicLinkRedirectPage() {
  const { search } = useLocation();
  const { product } = useParams();
  const handle = useMatches().at(-1)?.handle;
  const slug = useProductSlug();
  const kind = isHostRouteHandle(handle) ? KIND_BY_ROUTE[handle.route.name ?? ''] : undefined;
  if (slug.isPending) return null;
  if (product !== (slug.data ?? DEFAULT_PRODUCT_SLUG)) return <NotFoundPage />;
  return <Navigate replace to={kind ? classicLinkTarget(kind, search) : '/'} />;
}
