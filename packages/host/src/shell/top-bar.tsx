import { Badge, Button, Group } from '@mantine/core';
import IconHelp from '@tabler/icons-react/icons/IconHelp';
import IconLogin2 from '@tabler/icons-react/icons/IconLogin2';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { loginRoute } from '../routing/host-route-refs.js';
import { CarrierBrand } from './carrier-brand.js';
import { PR_NUMBER } from './support-links.js';

const UserMenu = lazy(() => import('./user-menu.js'));

export function TopBar() {
  const runtime = useHostRuntime();
  const signedIn = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session !== null,
  );
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" className="atrium-top-bar">
      <Group gap="sm" wrap="nowrap">
        <CarrierBrand />
        {PR_NUMBER ? (
          <Badge variant="outline" color="grape">
            PR #{PR_NUMBER}
          </Badge>
        ) : null}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          leftSection={<IconHelp size={16} stroke={1.75} aria-hidden />}
          onClick={() => runtime.ui.getState().openHelp()}
        >
          Help
        </Button>
        {signedIn ? (
          <Suspense fallback={null}>
            <UserMenu />
          </Suspense>
        ) : (
          <Button
            component={Link}
            to={loginRoute.path}
            variant="light"
            size="compact-sm"
            leftSection={<IconLogin2 size={16} stroke={1.75} aria-hidden />}
          >
            Sign in
          </Button>
        )}
      </Group>
    </Group>
  );
}
