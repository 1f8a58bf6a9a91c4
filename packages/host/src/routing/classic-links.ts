/**
 * Links into the carrier's previous portal (`/{product}/policies/information?policyId=…`) still
 * circulate in e-mails, documents and bookmarks; they land on the module routes. Only the id is
 * carried over, encoded, so a crafted query cannot steer the redirect elsewhere.
 */
export type ClassicLinkKind = 'policy' | 'claim' | 'contact';

const TARGETS: Record<ClassicLinkKind, { module: string; param: string }> = {
  policy: { module: '/policies', param: 'policyId' },
  claim: { module: '/claims', param: 'claimId' },
  contact: { module: '/contacts', param: 'id' },
};

export function classicLinkTarget(kind: ClassicLinkKind, search: string): string {
  const { module, param } = TARGETS[kind];
  const id = new URLSearchParams(search).get(param)?.trim();
  return id ? `${module}/${encodeURIComponent(id)}` : module;
}
