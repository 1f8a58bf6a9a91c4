import { Group, Menu, Text, UnstyledButton } from '@mantine/core';
import IconChevronDown from '@tabler/icons-react/icons/IconChevronDown';
import { Link, useNavigate } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useRuntimeStore } from '../host-runtime-context.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { logoutRoute, MY_ACCOUNT_PATH, SELECT_ROLE_PATH } from '../routing/host-route-refs.js';
import { supportLinks } from './support-links.js';

/** "Ada Administrator" → "AA" (at most two letters). */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/**
 * The top bar's user dropdown (spec: Layout and navigation). Its own chunk: only signed-in users
 * see it, and the menu's positioning code is not needed for the first paint.
 */
export default function UserMenu() {
  const navigate = useNavigate();
  const user = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session?.user ?? null,
  );
  const role = useRuntimeStore(
    (r) => r.auth,
    (s) => s.effectiveRole,
  );
  // Modules kept out of the navigation (Integrations), for the users who may open them.
  const modules = useVisibleNav('user-menu');
  // Resources pages of modules (Support Tools, Outstanding tickets), for who may open them.
  const resources = useVisibleNav('resources');
  if (!user) return null;
  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        {/*
          The name shown starts the accessible name (WCAG 2.5.3, label in name). The avatar's
          initials are no part of the name, so they are drawn by CSS, not as text.
        */}
        <UnstyledButton aria-label={`${user.name}, user menu`} className="atrium-user-button">
          <Group gap={8} wrap="nowrap">
            <span aria-hidden className="atrium-user-initials" data-initials={initialsOf(user.name)} />
            <Text size="sm" fw={500} truncate maw={180}>
              {user.name}
            </Text>
            <IconChevronDown size={14} stroke={1.75} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {user.name}
          </Text>
          <Text size="xs">{user.email}</Text>
        </Menu.Label>
        <Menu.Item onClick={() => navigate(SELECT_ROLE_PATH)}>{role ?? 'Please select a role'}</Menu.Item>
        <Menu.Item component={Link} to={MY_ACCOUNT_PATH}>
          My Account
        </Menu.Item>
        {modules.map(({ entry, href }) => (
          <Menu.Item key={entry.id} component={Link} to={href}>
            {entry.title}
          </Menu.Item>
        ))}
        <Menu.Item component={Link} to={logoutRoute.path}>
          Log out
        </Menu.Item>
        {isAgentRole(role) ? null : (
          <>
            <Menu.Divider />
            <Menu.Label>Resources</Menu.Label>
            <Menu.Item component="a" href={supportLinks.helpSite} target="_blank" rel="noopener noreferrer">
              Help site
            </Menu.Item>
            <Menu.Item component="a" href={supportLinks.communityForum} target="_blank" rel="noopener noreferrer">
              Community forum
            </Menu.Item>
            {supportLinks.labsFeedback ? (
              <Menu.Item component="a" href={supportLinks.labsFeedback} target="_blank" rel="noopener noreferrer">
                Labs feedback
              </Menu.Item>
            ) : null}
            {resources.map(({ entry, href }) => (
              <Menu.Item key={entry.id} component={Link} to={href}>
                {entry.title}
              </Menu.Item>
            ))}
            {/* Setup for Demo stays out until a page exists: a link must never lead to "Page not found". */}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
