/**
 * Agents and agencies are told apart by their effective role's name containing "Agent" or
 * "Agency" (spec: Roles and permissions). Case-sensitive on purpose: "Management" contains
 * "agent" in lower case and is not an agent role.
 */
export function isAgentRole(role: string | null | undefined): boolean {
  return typeof role === 'string' && /Agent|Agency/.test(role);
}
