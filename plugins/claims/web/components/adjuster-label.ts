/**
 * The primary adjuster as screens show them: the person's name (the claim's `primary_adjuster_name`)
 * with the user name where both fit, the user name alone when claims has no name for them yet (an
 * imported claim's adjuster until first assigned here), empty when unassigned.
 */
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function adjusterName(claim: Record<string, unknown>): string {
  return text(claim.primary_adjuster_name) || text(claim.primary_adjuster);
}

export function adjusterNameAndUser(claim: Record<string, unknown>): string {
  const name = text(claim.primary_adjuster_name);
  const username = text(claim.primary_adjuster);
  return name && username && name !== username ? `${name} (${username})` : name || username;
}
