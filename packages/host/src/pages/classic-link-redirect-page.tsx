import { Navigate, useLocation, useMatches } from 'react-router-dom';
import { classicLinkTarget, type ClassicLinkKind } from '../routing/classic-links.js';
import { classicClaimRoute, classicContactRoute, classicPolicyRoute } from '../routing/host-route-refs.js';
import { isHostRouteHandle } from '../routing/route-handle.js';

const KIND_BY_ROUTE: Record<string, ClassicLinkKind> = {
  [classicPolicyRoute.name]: 'policy',
  [classicClaimRoute.name]: 'claim',
  [classicContactRoute.name]: 'contact',
};

export default function ClassicLinkRedirectPage() {
  const { search } = useLocation();
  const handle = useMatches().at(-1)?.handle;
  const kind = isHostRouteHandle(handle) ? KIND_BY_ROUTE[handle.route.name ?? ''] : undefined;
  return <Navigate replace to={kind ? classicLinkTarget(kind, search) : '/'} />;
}
