import { Tabs } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { myAccountRoute, securityRoute } from '../routes.js';

/** Profile | Security, as links between the two pages. */
export function AccountTabs({ active }: { active: 'profile' | 'security' }) {
  const navigate = useNavigate();
  return (
    <Tabs
      value={active}
      onChange={(value) => void navigate(value === 'security' ? securityRoute.link({}) : myAccountRoute.link({}))}
    >
      <Tabs.List>
        <Tabs.Tab value="profile">Profile</Tabs.Tab>
        <Tabs.Tab value="security">Security</Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
