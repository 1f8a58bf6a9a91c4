import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  isApiRequestError,
  LoadingState,
  mapServerFormErrors,
  required,
  useApiClient,
  useCan,
  useHostServices,
  validateForm,
} from '@atrium/sdk';
import { ConfirmButton, ErrorAlert, TemporaryPassword, UsersAreaGate } from '../components/shared.js';
import { usersListRoute } from '../routes.js';
import {
  errorMessageOf,
  fetchUserByUsername,
  groupLinkage,
  saveUserRoles,
  setUserActive,
  temporaryPasswordOf,
  useAllGroups,
  useRoleNames,
  useUserRoles,
  usersKeys,
  useUsersChanged,
  USER_MANAGEMENT_API,
  type ManagedUser,
} from '../users-api.js';
import { StatusBadge } from '@atrium/sdk';
import { userStatusLabels } from '../users-labels.js';

interface Values extends Record<string, unknown> {
  name: string;
  email: string;
  phone_number: string;
  is_employee: boolean;
  contact_id: string;
  agency_id: string;
  groups: string[];
}

const valuesOf = (user: ManagedUser): Values => ({
  name: user.name,
  email: user.email ?? '',
  phone_number: user.phone_number ?? '',
  is_employee: user.is_employee,
  contact_id: user.contact_id ?? '',
  agency_id: user.agency_id ?? '',
  groups: user.groupIds,
});

/**
 * One user by user name: attributes, groups and roles (the access module's role assignments, shown
 * to those who may read them and changed by those who may assign), activate or deactivate, reset
 * the password or set a temporary one (shown once, with a copy button). Every action asks the SDK's
 * confirmation sentence first.
 */
export default function UserEditPage() {
  return (
    <UsersAreaGate>
      <UserEdit />
    </UsersAreaGate>
  );
}

function UserEdit() {
  const { username = '' } = useParams();
  const api = useApiClient();
  const user = useQuery({
    queryKey: usersKeys.user(username),
    queryFn: ({ signal }) => fetchUserByUsername(api, username, signal),
  });
  if (user.isPending) return <LoadingState rows={6} label="Loading" />;
  if (user.error) return <ErrorAlert error={user.error} />;
  if (!user.data)
    return (
      <Stack>
        <Title order={1}>User not found</Title>
        <Text>There is no user {username}.</Text>
        <Anchor component={Link} to={usersListRoute.link({})}>
          Back to users
        </Anchor>
      </Stack>
    );
  return <UserForm key={user.data.id} user={user.data} />;
}

function UserForm({ user }: { user: ManagedUser }) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useUsersChanged();
  const groups = useAllGroups();
  const canUpdate = useCan('identity:user', 'update').allowed;
  const canReadRoles = useCan('access:assignment', 'read').allowed;
  const canAssign = useCan('access:assignment', 'create').allowed;
  const canUnassign = useCan('access:assignment', 'delete').allowed;
  const canChangeRoles = canAssign && canUnassign;
  const heldRoles = useUserRoles(user.username, canReadRoles);
  const roleNames = useRoleNames(canChangeRoles);
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [roles, setRoles] = useState<string[] | null>(null);
  const shownRoles = roles ?? (heldRoles.data ?? []).map((a) => a.role);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [temporaryPassword, setTemporaryPassword] = useState<string | null>(null);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const invalid = validateForm(values, { name: { label: 'Name', rules: [required()] } });
    setErrors(invalid);
    setFormError(null);
    if (Object.keys(invalid).length) return;
    setBusy(true);
    try {
      const attributes: Record<string, unknown> = {};
      if (values.name.trim() !== user.name) attributes.name = values.name.trim();
      if (values.email.trim() !== (user.email ?? '') && values.email.trim()) attributes.email = values.email.trim();
      if (values.phone_number.trim() !== (user.phone_number ?? ''))
        attributes.phone_number = values.phone_number.trim() || null;
      if (values.is_employee !== user.is_employee) attributes.is_employee = values.is_employee;
      if (values.contact_id.trim() !== (user.contact_id ?? ''))
        attributes.contact_id = values.contact_id.trim() || null;
      if (values.agency_id.trim() !== (user.agency_id ?? '')) attributes.agency_id = values.agency_id.trim() || null;
      if (Object.keys(attributes).length)
        await api.patch(
          `${USER_MANAGEMENT_API}/users/${user.id}`,
          { data: { type: 'user', id: user.id, attributes } },
          { jsonApi: true },
        );
      const added = values.groups.filter((id) => !user.groupIds.includes(id));
      const removed = user.groupIds.filter((id) => !values.groups.includes(id));
      const relationship = `${USER_MANAGEMENT_API}/users/${user.id}/relationships/groups`;
      if (added.length) await api.post(relationship, { data: groupLinkage(added) }, { jsonApi: true });
      if (removed.length)
        await api.request(relationship, { method: 'DELETE', body: { data: groupLinkage(removed) }, jsonApi: true });
      if (canChangeRoles && roles && heldRoles.data) {
        const failed = await saveUserRoles(api, user.username, heldRoles.data, roles);
        setRoles(null);
        if (failed.length) {
          await changed();
          setFormError(`Roles not changed: ${failed.map((f) => `${f.item} (${f.errorMessage})`).join(', ')}.`);
          return;
        }
      }
      await changed();
      services.showToast({ message: `User ${user.username} saved.`, kind: 'success' });
    } catch (error) {
      if (!isApiRequestError(error)) throw error;
      const mapped = mapServerFormErrors(error);
      setErrors(mapped.fields);
      setFormError(mapped.formError ?? (Object.keys(mapped.fields).length ? null : error.message));
    } finally {
      setBusy(false);
    }
  }

  async function act(run: () => Promise<unknown>, done: string) {
    setActionError(null);
    try {
      await run();
      await changed();
      services.showToast({ message: done, kind: 'success' });
    } catch (error) {
      setActionError(errorMessageOf(error));
    }
  }

  return (
    <Stack maw={640}>
      <Group justify="space-between">
        <Title order={1}>{user.username}</Title>
        <Group gap="xs">
          <Badge color={user.is_active ? 'green' : 'gray'} variant="light">
            {user.is_active ? 'Active' : 'Inactive'}
          </Badge>
          <StatusBadge labels={userStatusLabels} value={user.status} variant="outline" />
          {user.mfa_enabled && <Badge variant="outline">MFA</Badge>}
        </Group>
      </Group>
      {canUpdate && (
        <Group>
          {user.is_active ? (
            <ConfirmButton
              key="deactivate"
              label="user"
              verb="deactivate"
              color="red"
              onConfirm={() => act(() => setUserActive(api, user, false), `User ${user.username} deactivated.`)}
            >
              Deactivate
            </ConfirmButton>
          ) : (
            <ConfirmButton
              key="activate"
              label="user"
              verb="activate"
              onConfirm={() => act(() => setUserActive(api, user, true), `User ${user.username} activated.`)}
            >
              Activate
            </ConfirmButton>
          )}
          <ConfirmButton
            label="user"
            verb="reset the password of"
            onConfirm={() =>
              act(
                () => api.post(`${USER_MANAGEMENT_API}/users/${user.id}/reset-password`, undefined, { jsonApi: true }),
                `${user.username} must reset the password at the next sign-in.`,
              )
            }
          >
            Reset password
          </ConfirmButton>
          <ConfirmButton
            label="user"
            verb="set a temporary password for"
            onConfirm={() =>
              act(async () => {
                const answer = await api.post(
                  `${USER_MANAGEMENT_API}/users/${user.id}/set-temporary-password`,
                  undefined,
                  { jsonApi: true },
                );
                setTemporaryPassword(temporaryPasswordOf(answer));
              }, `A temporary password was set for ${user.username}.`)
            }
          >
            Set temporary password
          </ConfirmButton>
        </Group>
      )}
      {actionError && (
        <Alert color="red" role="alert">
          {actionError}
        </Alert>
      )}
      {temporaryPassword && (
        <Alert color="green" title="Temporary password" role="status">
          <Stack gap="xs">
            <TemporaryPassword value={temporaryPassword} />
            <Text size="sm">It is shown only now; the user must choose a new password at the next sign-in.</Text>
          </Stack>
        </Alert>
      )}
      <form onSubmit={save} noValidate>
        <Stack>
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label="Name"
            required
            disabled={!canUpdate}
            value={values.name}
            error={errors.name}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <TextInput
            label="E-mail"
            type="email"
            disabled={!canUpdate}
            value={values.email}
            error={errors.email}
            onChange={(e) => set('email', e.currentTarget.value)}
          />
          <TextInput
            label="Phone"
            disabled={!canUpdate}
            value={values.phone_number}
            error={errors.phone_number}
            onChange={(e) => set('phone_number', e.currentTarget.value)}
          />
          <Checkbox
            label="Employee"
            disabled={!canUpdate}
            checked={values.is_employee}
            onChange={(e) => set('is_employee', e.currentTarget.checked)}
          />
          <TextInput
            label="Producer contact"
            description="Agents: the contact this user writes business as. They read the claims of those policies."
            disabled={!canUpdate}
            value={values.contact_id}
            error={errors.contact_id}
            onChange={(e) => set('contact_id', e.currentTarget.value)}
          />
          <TextInput
            label="Agency contact"
            description="Agents and agencies: the agency they write for. Agencies read the claims of its policies."
            disabled={!canUpdate}
            value={values.agency_id}
            error={errors.agency_id}
            onChange={(e) => set('agency_id', e.currentTarget.value)}
          />
          <MultiSelect
            label="Groups"
            searchable
            disabled={!canUpdate}
            data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            value={values.groups}
            error={errors.groups}
            onChange={(value) => set('groups', value)}
          />
          {canReadRoles && (
            <MultiSelect
              label="Roles"
              description="Roles given to this user directly; groups may give more."
              placeholder={canChangeRoles ? 'Choose roles' : undefined}
              searchable
              disabled={!canChangeRoles || heldRoles.isPending}
              data={[...new Set([...(roleNames.data ?? []), ...shownRoles])]}
              value={shownRoles}
              onChange={setRoles}
            />
          )}
          <ErrorAlert error={heldRoles.error ?? roleNames.error} />
          <Group>
            {(canUpdate || canChangeRoles) && (
              <Button type="submit" loading={busy}>
                Save
              </Button>
            )}
            <Button component={Link} to={usersListRoute.link({})} variant="default">
              Back to users
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
