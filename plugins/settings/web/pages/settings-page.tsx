import { Alert, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorAlert, LoadingState, PageHeader, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { MassDeliverablesCard } from '../components/mass-deliverables-card.js';
import { carrierSettingsSchema, type CarrierSettingsValues } from '../../shared/settings-schemas.js';

type Form = {
  name: string;
  website: string;
  logo_url: string;
  claim_prefix: string;
  policy_prefix: string;
  live_status: boolean;
  live_status_description: string;
  product_slug: string;
};
type Field = keyof Form;

const toForm = (s: CarrierSettingsValues): Form => ({
  ...s,
  website: s.website ?? '',
  logo_url: s.logo_url ?? '',
});

function fieldErrors(form: Form): Partial<Record<Field, string>> {
  const parsed = carrierSettingsSchema.safeParse(form);
  if (parsed.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Settings (administrators): the carrier's name, website, logo, number prefixes, live status, product slug. */
export default function SettingsPage() {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canUpdate = useCan('settings:carrier', 'update');
  const canReadDeliverables = useCan('settings:mass-deliverable', 'read').allowed;
  const settings = useQuery({
    queryKey: ['settings', 'carrier'],
    queryFn: ({ signal }) => api.get<CarrierSettingsValues>('/settings/carrier/', { signal }),
  });
  const [form, setForm] = useState<Form | null>(null);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  useEffect(() => {
    if (settings.data && form === null) setForm(toForm(settings.data));
  }, [settings.data, form]);

  if (settings.error) return <ErrorAlert error={settings.error} />;
  if (!form) return <LoadingState rows={6} label="Loading settings" />;

  const errors = fieldErrors(form);
  const show = (field: Field) => (submitted || touched[field] ? errors[field] : undefined);
  const readOnly = !canUpdate.allowed;
  const input = (field: Exclude<Field, 'live_status'>, label: string, description?: string) => ({
    label,
    description,
    value: form[field],
    error: show(field),
    readOnly,
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [field]: e.currentTarget.value }),
    onBlur: () => setTouched({ ...touched, [field]: true }),
  });

  async function save() {
    setSubmitted(true);
    if (!form || Object.keys(errors).length > 0) return;
    setBusy(true);
    setProblem(null);
    try {
      const saved = await api.put<CarrierSettingsValues>('/settings/carrier/', carrierSettingsSchema.parse(form));
      setForm(toForm(saved));
      queryClient.setQueryData(['settings', 'carrier'], saved);
      // The top bar's carrier name and logo and the live-site banner read the core's calls.
      await queryClient.invalidateQueries({ queryKey: ['carrier'] });
      showToast({ message: 'Settings saved.', kind: 'success' });
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack maw={720}>
      <PageHeader title="Settings" description="The carrier this site runs for, and how the site presents itself." />
      {problem ? <ErrorAlert error={problem} /> : null}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Carrier
        </Title>
        <Stack gap="sm">
          <TextInput required {...input('name', 'Carrier name', 'Shown in the top bar and on the sign-in page.')} />
          <TextInput {...input('website', 'Website', 'The carrier name links here; leave empty for no link.')} />
          <TextInput {...input('logo_url', 'Logo', 'A web address or a path on this site, e.g. /carrier-logo.svg.')} />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Numbering and links
        </Title>
        <Stack gap="sm">
          <Group grow align="start">
            <TextInput required {...input('claim_prefix', 'Claim number prefix')} />
            <TextInput required {...input('policy_prefix', 'Policy number prefix')} />
          </Group>
          <TextInput
            required
            {...input(
              'product_slug',
              'Product slug',
              'The first part of classic links, e.g. /atrium/claims/information.',
            )}
          />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Live status
        </Title>
        <Stack gap="sm">
          <Checkbox
            label="This is the live site"
            description="Employees then see the red 'Be careful, this is a Live site' banner, with the description below."
            checked={form.live_status}
            disabled={readOnly}
            onChange={(e) => setForm({ ...form, live_status: e.currentTarget.checked })}
          />
          <Textarea autosize minRows={2} {...input('live_status_description', 'Description of the live status')} />
        </Stack>
      </Paper>
      <Text size="sm" c="dimmed">
        Session timeout, password policy and multi-factor authentication are set in Users → Admin settings.
      </Text>
      {submitted && Object.keys(errors).length > 0 ? (
        <Alert color="red">We&apos;re sorry, but some information is missing.</Alert>
      ) : null}
      {readOnly ? null : (
        <Group justify="flex-end">
          <Button
            variant="default"
            disabled={busy}
            onClick={() => {
              if (settings.data) setForm(toForm(settings.data));
              setTouched({});
              setSubmitted(false);
            }}
          >
            Cancel
          </Button>
          <Button onClick={save} loading={busy}>
            Save
          </Button>
        </Group>
      )}
      {canReadDeliverables ? <MassDeliverablesCard /> : null}
    </Stack>
  );
}
