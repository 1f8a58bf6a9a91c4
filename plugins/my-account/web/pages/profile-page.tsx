import {
  Alert,
  Avatar,
  Button,
  FileButton,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { CONFIRM_CANCEL, LoadingState, mapServerFormErrors, useApiClient } from '@atrium/sdk';
import {
  changeMfaPreference,
  PICTURE_ACCEPT,
  pictureProblem,
  removePicture,
  updateProfile,
  uploadPicture,
  useAccount,
  usePictureSource,
  useRefreshAccount,
  type AccountUser,
} from '../account-api.js';
import { AccountTabs } from '../components/account-tabs.js';
import { AttributeVerification } from '../components/attribute-verification.js';
import { PROFILE_SAVE_FAILED_MESSAGE, SMS_MFA_DISABLED_MESSAGE, USER_ATTRIBUTES_ERROR } from '../mfa-methods.js';
import { saveProfile, validateProfile, type ProfileValues } from '../profile-save.js';

export const PHONE_CHANGE_CONFIRMATION =
  'Changing your phone number will disable SMS MFA until you turn it on again. Do you want to continue?';

/** `/my-account`: the signed-in user's name, e-mail address, phone number and picture. */
export default function ProfilePage() {
  const account = useAccount();
  // Outside the form: a saved change remounts the form (see the key below), the message stays.
  const [saved, setSaved] = useState<string | null>(null);
  let body;
  if (account.isPending) body = <LoadingState rows={6} label="Loading your profile" />;
  else if (account.isError)
    body = (
      <Alert color="red" role="alert">
        {USER_ATTRIBUTES_ERROR}
      </Alert>
    );
  // Keyed by updated_at: a saved change starts the form again from what the server holds.
  else body = <ProfileForm key={account.data.updated_at} user={account.data} onSaved={setSaved} />;
  return (
    <Stack gap="md">
      <Title order={1}>My Account</Title>
      <AccountTabs active="profile" />
      {saved ? (
        <Alert color="green" role="status" maw={480}>
          {saved}
        </Alert>
      ) : null}
      {body}
    </Stack>
  );
}

/** The picture as the form holds it: unchanged, a newly chosen file (with its preview) or removed. */
type PictureChange = { kind: 'keep' } | { kind: 'new'; file: File; preview: string } | { kind: 'removed' };

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

const valuesOf = (user: AccountUser): ProfileValues => ({
  name: user.name,
  email: user.email,
  phone_number: user.phone_number ?? '',
});

function ProfileForm({ user, onSaved }: { user: AccountUser; onSaved(message: string | null): void }) {
  const api = useApiClient();
  const refresh = useRefreshAccount();
  const before = valuesOf(user);
  const [values, setValues] = useState(before);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof ProfileValues, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [picture, setPicture] = useState<PictureChange>({ kind: 'keep' });
  const [pictureError, setPictureError] = useState<string | null>(null);
  const savedPicture = usePictureSource(user.picture);
  const shownPicture = picture.kind === 'new' ? picture.preview : picture.kind === 'removed' ? null : savedPicture;
  // The phone-change confirmation: answered through a promise so the save reads as one sequence.
  const [asking, setAsking] = useState(false);
  const answer = useRef<((password: string | null) => void) | null>(null);
  const [password, setPassword] = useState('');
  const confirmedPassword = useRef('');

  const confirmPhoneChange = () =>
    new Promise<boolean>((resolve) => {
      answer.current = (typed) => {
        confirmedPassword.current = typed ?? '';
        setAsking(false);
        setPassword('');
        resolve(typed !== null);
      };
      setAsking(true);
    });

  const field = (name: keyof ProfileValues) => ({
    value: values[name],
    error: fieldErrors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues({ ...values, [name]: event.currentTarget.value }),
    onBlur: () => setFieldErrors({ ...fieldErrors, [name]: validateProfile(values)[name] }),
  });

  const choosePicture = async (file: File | null) => {
    if (!file) return;
    const problem = pictureProblem(file);
    setPictureError(problem);
    if (problem) return;
    try {
      setPicture({ kind: 'new', file, preview: await readAsDataUrl(file) });
    } catch {
      setPictureError(PROFILE_SAVE_FAILED_MESSAGE);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    onSaved(null);
    setSaving(true);
    const result = await saveProfile(before, values, user.mfa.sms_mfa_enabled, {
      confirmPhoneChange,
      disableSmsMfa: async () => {
        await changeMfaPreference(api, confirmedPassword.current, { sms_mfa: { enabled: false, preferred: false } });
      },
      save: async (next) => {
        await updateProfile(api, user.id, {
          name: next.name.trim(),
          email: next.email.trim(),
          phone_number: next.phone_number.trim() || null,
        });
        if (picture.kind === 'new') await uploadPicture(api, picture.file);
        else if (picture.kind === 'removed') await removePicture(api);
      },
    });
    confirmedPassword.current = '';
    setSaving(false);
    switch (result.status) {
      case 'invalid':
        setFieldErrors(result.fields);
        setFailure(result.message);
        return;
      case 'cancelled':
        return;
      case 'failed':
        setFieldErrors(mapServerFormErrors(result.cause).fields as Partial<Record<keyof ProfileValues, string>>);
        setFailure(result.message);
        // SMS MFA may be off even though the profile was not saved.
        await refresh();
        return;
      case 'saved':
        setFieldErrors({});
        onSaved(
          result.smsMfaDisabled
            ? `Your changes have been saved. ${SMS_MFA_DISABLED_MESSAGE}`
            : 'Your changes have been saved.',
        );
        await refresh();
    }
  };

  return (
    <Stack gap="md" maw={480}>
      <Group>
        <Avatar src={savedPicture} alt="" size="lg" name={user.name} color="initials" />
        <Stack gap={0}>
          <Text fw={600}>{user.name}</Text>
          <Text size="sm" c="dimmed">
            {user.groups.join(', ')}
          </Text>
        </Stack>
      </Group>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Profile">
        <Stack gap="sm">
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <TextInput label="Name" autoComplete="name" {...field('name')} />
          <TextInput label="Email" type="email" autoComplete="email" {...field('email')} />
          <TextInput
            label="Phone number"
            type="tel"
            autoComplete="tel"
            description="With the country code, e.g. +15555550123."
            {...field('phone_number')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="profile-picture-label">
              Picture
            </Text>
            <Group>
              <Avatar
                src={shownPicture}
                alt={shownPicture ? 'Your picture' : ''}
                size="xl"
                name={values.name}
                color="initials"
              />
              <FileButton onChange={(file) => void choosePicture(file)} accept={PICTURE_ACCEPT}>
                {(props) => (
                  <Button variant="default" aria-describedby="profile-picture-label" {...props}>
                    Choose picture
                  </Button>
                )}
              </FileButton>
              {shownPicture ? (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() => {
                    setPictureError(null);
                    setPicture(user.picture ? { kind: 'removed' } : { kind: 'keep' });
                  }}
                >
                  Remove picture
                </Button>
              ) : null}
            </Group>
            <Text size="xs" c={pictureError ? 'red' : 'dimmed'} role={pictureError ? 'alert' : undefined}>
              {pictureError ?? 'PNG, JPEG or WebP, at most 2 MB. Saved with the form.'}
            </Text>
          </Stack>
          <Group>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      {!user.email_verified ? <AttributeVerification attribute="email" destination={user.email} /> : null}
      {user.phone_number && !user.phone_number_verified ? (
        <AttributeVerification attribute="phone_number" destination={user.phone_number} />
      ) : null}

      <Modal opened={asking} onClose={() => answer.current?.(null)} title="Change phone number">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (password) answer.current?.(password);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{PHONE_CHANGE_CONFIRMATION}</Text>
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              data-autofocus
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => answer.current?.(null)}>
                {CONFIRM_CANCEL}
              </Button>
              <Button type="submit" disabled={!password}>
                Continue
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
