import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import IconKey from '@tabler/icons-react/icons/IconKey';
import IconPlus from '@tabler/icons-react/icons/IconPlus';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  ConfirmButton,
  defineStatusLabels,
  DataTable,
  EmptyState,
  ErrorAlert,
  LoadingState,
  PageHeader,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import { UsersAreaGate } from '../components/shared.js';
import { errorMessageOf, usersKeys } from '../users-api.js';

export const OIDC_PROVIDERS_API = '/identity/oidc-providers';

/** A provider as the administrators' list answers it (never its client secret). */
export interface SignInProvider {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  has_client_secret: boolean;
  scopes: string[];
  enabled: boolean;
  link_by_email: boolean;
  redirect_uris: string[];
}

const enabledLabels = defineStatusLabels({
  true: { label: 'Enabled', tone: 'success' },
  false: { label: 'Disabled', tone: 'neutral' },
});

/**
 * Sign-in providers: the external OpenID Connect providers (a carrier's SSO) users may sign in
 * with, listed on the sign-in page by name. Administrators add, change, disable and remove them; the
 * client secret is write-only (sealed at rest, never shown again).
 */
export default function SignInProvidersPage() {
  return (
    <UsersAreaGate>
      <SignInProviders />
    </UsersAreaGate>
  );
}

function SignInProviders() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canCreate = useCan('identity:oidc-provider', 'create').allowed;
  const canUpdate = useCan('identity:oidc-provider', 'update').allowed;
  const canDelete = useCan('identity:oidc-provider', 'delete').allowed;
  const [editing, setEditing] = useState<SignInProvider | 'new' | null>(null);
  const providers = useQuery({
    queryKey: usersKeys.settings('oidc-providers'),
    queryFn: ({ signal }) =>
      api.get<{ providers: SignInProvider[] }>(`${OIDC_PROVIDERS_API}/all`, { signal }).then((r) => r.providers),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: usersKeys.settings('oidc-providers') });

  async function remove(provider: SignInProvider) {
    await api.delete(`${OIDC_PROVIDERS_API}/${provider.id}`);
    await refresh();
    services.showToast({ message: `Removed ${provider.name}.`, kind: 'success' });
  }

  return (
    <Stack>
      <PageHeader
        title="Sign-in providers"
        icon={IconKey}
        description="External OpenID Connect providers (your single sign-on) that users may sign in with."
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
              Add provider
            </Button>
          )
        }
      />
      <ErrorAlert error={providers.error} />
      {providers.isPending ? (
        <LoadingState label="Loading sign-in providers" />
      ) : (providers.data ?? []).length === 0 ? (
        <EmptyState
          icon={IconKey}
          title="No sign-in providers"
          description="Users sign in with their user name and password only."
        />
      ) : (
        <DataTable label="Sign-in providers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Issuer</Table.Th>
              <Table.Th>Client ID</Table.Th>
              <Table.Th>Client type</Table.Th>
              <Table.Th>Match by e-mail</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <span className="sr-only">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(providers.data ?? []).map((provider) => (
              <Table.Tr key={provider.id}>
                <Table.Td>{provider.name}</Table.Td>
                <Table.Td>{provider.issuer}</Table.Td>
                <Table.Td>{provider.client_id}</Table.Td>
                <Table.Td>{provider.has_client_secret ? 'Confidential (secret kept)' : 'Public (PKCE only)'}</Table.Td>
                <Table.Td>{provider.link_by_email ? 'Yes' : 'No'}</Table.Td>
                <Table.Td>
                  <StatusBadge value={String(provider.enabled)} labels={enabledLabels} />
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {canUpdate && (
                      <Button size="compact-sm" variant="light" onClick={() => setEditing(provider)}>
                        Edit
                      </Button>
                    )}
                    {canDelete && (
                      <ConfirmButton
                        label={provider.name}
                        verb="remove"
                        color="red"
                        size="compact-sm"
                        onConfirm={() => remove(provider)}
                      >
                        Remove
                      </ConfirmButton>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
      )}
      {/* Mounted while closed, so that closing hands the focus back to the button that opened it. */}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing && editing !== 'new' ? `Edit ${editing.name}` : 'Add a sign-in provider'}
        size="lg"
      >
        {editing && (
          <ProviderForm
            key={editing === 'new' ? 'new' : editing.id}
            provider={editing === 'new' ? null : editing}
            onClose={() => setEditing(null)}
            onSaved={async (name) => {
              setEditing(null);
              await refresh();
              services.showToast({ message: `Saved ${name}.`, kind: 'success' });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

function ProviderForm({
  provider,
  onClose,
  onSaved,
}: {
  provider: SignInProvider | null;
  onClose(): void;
  onSaved(name: string): Promise<void>;
}) {
  const api = useApiClient();
  const [name, setName] = useState(provider?.name ?? '');
  const [issuer, setIssuer] = useState(provider?.issuer ?? 'https://');
  const [clientId, setClientId] = useState(provider?.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [publicClient, setPublicClient] = useState(provider ? !provider.has_client_secret : false);
  const [scopes, setScopes] = useState((provider?.scopes ?? ['openid', 'email', 'profile', 'phone']).join(' '));
  const [redirectUris, setRedirectUris] = useState(
    (provider?.redirect_uris ?? [`${window.location.origin}/login/idpresponse`]).join('\n'),
  );
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [linkByEmail, setLinkByEmail] = useState(provider?.link_by_email ?? false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim() || !clientId.trim()) {
      setError('Enter the name and the client ID.');
      return;
    }
    if (!provider && !publicClient && !secret) {
      setError('Enter the client secret, or choose a public client.');
      return;
    }
    const body: Record<string, unknown> = {
      name: name.trim(),
      issuer: issuer.trim(),
      client_id: clientId.trim(),
      scopes: scopes.split(/\s+/).filter(Boolean),
      redirect_uris: lines(redirectUris),
      enabled,
      link_by_email: linkByEmail,
    };
    // The secret is write-only: left empty on an edit it stays as it is.
    if (publicClient) body.client_secret = null;
    else if (secret) body.client_secret = secret;
    setBusy(true);
    setError(null);
    try {
      if (provider) await api.patch(`${OIDC_PROVIDERS_API}/${provider.id}`, body);
      else await api.post(OIDC_PROVIDERS_API, body);
      await onSaved(name.trim());
    } catch (caught) {
      setError(errorMessageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label="Name"
          description="Shown on the sign-in page."
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
        />
        <TextInput
          label="Issuer"
          description="The provider's https:// issuer URL; its OpenID configuration is read from it."
          value={issuer}
          onChange={(e) => setIssuer(e.currentTarget.value)}
          required
        />
        <TextInput label="Client ID" value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} required />
        <Checkbox
          label="Public client (no secret; PKCE only)"
          checked={publicClient}
          onChange={(e) => setPublicClient(e.currentTarget.checked)}
        />
        {!publicClient && (
          <PasswordInput
            label="Client secret"
            description={
              provider?.has_client_secret
                ? 'Kept sealed and never shown. Leave empty to keep the current secret.'
                : 'Kept sealed and never shown again.'
            }
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            autoComplete="new-password"
          />
        )}
        <TextInput
          label="Scopes"
          description="Separated by spaces; openid is required."
          value={scopes}
          onChange={(e) => setScopes(e.currentTarget.value)}
        />
        <Textarea
          label="Redirect URIs"
          description="As registered for this client at the provider, one a line: this app's /login/idpresponse on each address users reach it at."
          value={redirectUris}
          onChange={(e) => setRedirectUris(e.currentTarget.value)}
          rows={3}
        />
        <Checkbox
          label="Sign in the user whose user name is the provider's verified e-mail"
          checked={linkByEmail}
          onChange={(e) => setLinkByEmail(e.currentTarget.checked)}
        />
        <Checkbox
          label="Enabled (listed on the sign-in page)"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Text size="xs" c="dimmed">
          Users link their accounts in My Account; with e-mail matching, the first sign-in links them.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
