import { Alert, Anchor, Button, Group, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  isApiRequestError,
  mapServerFormErrors,
  required,
  useApiClient,
  useCan,
  useHostServices,
  validateForm,
  type JsonApiDocument,
  type JsonApiResource,
} from '@atrium/sdk';
import { ErrorAlert, TemporaryPassword, UsersAreaGate } from '../components/shared.js';
import { usersEditRoute, usersListRoute } from '../routes.js';
import {
  groupLinkage,
  saveUserRoles,
  temporaryPasswordOf,
  toUser,
  useAllGroups,
  useRoleNames,
  useUsersChanged,
  USER_MANAGEMENT_API,
  type ManagedUser,
} from '../users-api.js';

interface Values extends Record<string, unknown> {
  name: string;
  email: string;
  phone_number: string;
  groups: string[];
  roles: string[];
}

const EMPTY: Values = { name: '', email: '', phone_number: '', groups: [], roles: [] };

/** The fields the server may point at, mapped onto this form's inputs (the username is the e-mail). */
const FIELD_OF: Record<string, keyof Values> = {
  name: 'name',
  email: 'email',
  username: 'email',
  phone_number: 'phone_number',
  groups: 'groups',
  roles: 'roles',
};

/**
 * Creates (invites) a user: name, e-mail (which is also the user name), phone, groups and roles
 * (the access module's role assignments, given once the user exists). The server answers a
 * temporary password once (`meta.temporary_password`); it is shown here, with a copy button, and
 * nowhere else.
 */
export default function UserManagePage() {
  return (
    <UsersAreaGate>
      <UserManage />
    </UsersAreaGate>
  );
}

function UserManage() {
  const { inviteUserContactId } = useParams();
  const api = useApiClient();
  const services = useHostServices();
  const changed = useUsersChanged();
  const groups = useAllGroups();
  const canAssignRoles = useCan('access:assignment', 'create').allowed;
  const roleNames = useRoleNames(canAssignRoles);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{
    user: ManagedUser;
    temporaryPassword: string | null;
    roles: string[];
  } | null>(null);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validateForm(values, {
      name: { label: 'Name', rules: [required()] },
      email: { label: 'E-mail', rules: [required()] },
    });
    setErrors(invalid);
    setFormError(null);
    if (Object.keys(invalid).length) return;
    setBusy(true);
    try {
      const email = values.email.trim();
      const document = await api.post<JsonApiDocument<JsonApiResource>>(
        `${USER_MANAGEMENT_API}/users`,
        {
          data: {
            type: 'user',
            attributes: {
              username: email,
              name: values.name.trim(),
              email,
              ...(values.phone_number.trim() ? { phone_number: values.phone_number.trim() } : {}),
            },
            ...(values.groups.length ? { relationships: { groups: { data: groupLinkage(values.groups) } } } : {}),
          },
        },
        { jsonApi: true },
      );
      const user = toUser(document.data);
      const failed = values.roles.length ? await saveUserRoles(api, user.username, [], values.roles) : [];
      const given = values.roles.filter((role) => !failed.some((f) => f.item === role));
      setCreated({ user, temporaryPassword: temporaryPasswordOf(document), roles: given });
      setValues(EMPTY);
      await changed();
      if (failed.length)
        setFormError(
          `User ${user.username} was created, but not given ${failed.map((f) => `${f.item} (${f.errorMessage})`).join(', ')}.`,
        );
      services.showToast({ message: `User ${user.username} created.`, kind: 'success' });
    } catch (error) {
      if (!isApiRequestError(error)) throw error;
      const mapped = mapServerFormErrors(error);
      const fieldErrors: Partial<Record<keyof Values, string>> = {};
      for (const [field, message] of Object.entries(mapped.fields)) {
        const key = FIELD_OF[field.split('.')[0]!];
        if (key && !fieldErrors[key]) fieldErrors[key] = message;
        else if (!key) setFormError(message);
      }
      setErrors(fieldErrors);
      if (mapped.formError) setFormError(mapped.formError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack maw={560}>
      <Title order={1}>New user</Title>
      {inviteUserContactId && <Text size="sm">Inviting contact {inviteUserContactId}.</Text>}
      {created && (
        <Alert color="green" title="User created" role="status">
          <Stack gap="xs">
            <Text size="sm">
              {created.user.username} can sign in with this temporary password and must then choose a new one. It is
              shown only now.
            </Text>
            {created.roles.length > 0 && <Text size="sm">Roles: {created.roles.join(', ')}</Text>}
            {created.temporaryPassword && <TemporaryPassword value={created.temporaryPassword} />}
            <Group>
              <Anchor component={Link} to={usersEditRoute.link({ username: created.user.username })}>
                Edit {created.user.username}
              </Anchor>
              <Anchor component={Link} to={usersListRoute.link({})}>
                Back to users
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label="Name"
            required
            value={values.name}
            error={errors.name}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <TextInput
            label="E-mail"
            description="Also the user name"
            required
            type="email"
            value={values.email}
            error={errors.email}
            onChange={(e) => set('email', e.currentTarget.value)}
          />
          <TextInput
            label="Phone"
            placeholder="+15555550100"
            value={values.phone_number}
            error={errors.phone_number}
            onChange={(e) => set('phone_number', e.currentTarget.value)}
          />
          <MultiSelect
            label="Groups"
            placeholder="Choose groups"
            searchable
            data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            value={values.groups}
            error={errors.groups}
            onChange={(value) => set('groups', value)}
          />
          {canAssignRoles && (
            <MultiSelect
              label="Roles"
              placeholder="Choose roles"
              searchable
              data={roleNames.data ?? []}
              value={values.roles}
              error={errors.roles}
              onChange={(value) => set('roles', value)}
            />
          )}
          <ErrorAlert error={groups.error ?? roleNames.error} />
          <Group>
            <Button type="submit" loading={busy}>
              Create user
            </Button>
            <Button component={Link} to={usersListRoute.link({})} variant="default">
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
