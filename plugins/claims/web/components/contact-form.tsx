import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { mapServerFormErrors, required, useApiClient, validateForm } from '@atrium/sdk';
import {
  addressByZip,
  contactInputOf,
  displayName,
  saveContact,
  useAddressTypes,
  useAllowDuplicateSsn,
  useGenders,
  validateSsn,
  type ContactInput,
  type SsnCheck,
} from '../api/contacts-api.js';
import { errorMessageOf, text, type Flat } from '../api/jsonapi.js';

const SSN_INVALID = 'Enter a valid SSN such as 123-45-6789.';
const SSN_TAKEN = 'Another contact already has this SSN.';

/**
 * Create (POST) or edit (PUT) a contact. Typing a 5-digit ZIP fills city and state from
 * `address-by-zip/`; an SSN is checked with `validate-ssn/` when the field is left and again
 * before saving: a malformed one is refused, one another contact has is refused unless duplicate
 * SSNs are allowed (`allow-duplicate-ssn/`), and then only once the user confirms. Genders and
 * address types come from their lookups. The server's field errors land on the fields.
 */
export function ContactForm({
  contact,
  opened,
  onClose,
  onSaved,
}: {
  /** The contact to edit, or null for a new one. */
  contact: Flat | null;
  opened: boolean;
  onClose(): void;
  onSaved(contact: Flat): void;
}) {
  const api = useApiClient();
  const genders = useGenders();
  const addressTypes = useAddressTypes();
  const allowDuplicates = useAllowDuplicateSsn();
  const [values, setValues] = useState<ContactInput>(() => contactInputOf(contact));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [zipNote, setZipNote] = useState<string | null>(null);
  const [ssnCheck, setSsnCheck] = useState<(SsnCheck & { ssn: string }) | null>(null);
  const [confirmDuplicate, setConfirmDuplicate] = useState(false);
  const set = (patch: Partial<ContactInput>) => setValues((v) => ({ ...v, ...patch }));
  const setAddress = (patch: Partial<ContactInput['address']>) =>
    setValues((v) => ({ ...v, address: { ...v.address, ...patch } }));

  const lookUpZip = async (zip: string) => {
    setZipNote(null);
    if (!/^\d{5}$/.test(zip)) return;
    try {
      const found = await addressByZip(api, zip);
      if (found) setAddress({ city: found.city, state: found.state });
      else setZipNote(`ZIP code ${zip} not found.`);
    } catch (error) {
      setZipNote(errorMessageOf(error));
    }
  };

  /** Asks the server about the SSN; remembers the answer (the duplicate confirmation shows from it). */
  const checkSsn = async (ssn: string): Promise<SsnCheck | null> => {
    if (!ssn.trim()) {
      setSsnCheck(null);
      return null;
    }
    const check = { ...(await validateSsn(api, ssn.trim(), contact?.id ?? null)), ssn: ssn.trim() };
    setSsnCheck(check);
    return check;
  };
  const ssnErrorOf = (check: SsnCheck | null) =>
    !check ? null : !check.valid ? SSN_INVALID : check.duplicate && !check.allowed ? SSN_TAKEN : null;
  const duplicateToConfirm = !!ssnCheck && ssnCheck.ssn === values.ssn.trim() && ssnCheck.duplicate && ssnCheck.allowed;

  const submit = async () => {
    if (busy) return;
    const found = validateForm(values as unknown as Record<string, unknown>, {
      ...(values.kind === 'person'
        ? { last_name: { label: 'Last name', rules: [required()] } }
        : { name: { label: 'Name', rules: [required()] } }),
    }) as Record<string, string>;
    setFailure(null);
    setBusy(true);
    try {
      const check = await checkSsn(values.ssn);
      const ssnError = ssnErrorOf(check);
      if (ssnError) found.ssn = ssnError;
      setErrors(found);
      if (Object.keys(found).length > 0) return;
      // An allowed duplicate is saved only once the user ticked the confirmation the check showed.
      if (check?.duplicate && !confirmDuplicate) return;
      onSaved(await saveContact(api, contact, values));
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      setErrors(
        Object.fromEntries(
          Object.entries(mapped.fields).map(([k, v]) => [k.replace(/^addresses\.0\./, 'address.'), v]),
        ),
      );
      setFailure(mapped.formError ? errorMessageOf(error) : null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={contact ? `Edit contact ${text(contact.name)}` : 'New contact'}
      size="lg"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <SegmentedControl
            aria-label="Kind"
            value={values.kind}
            onChange={(v) => set({ kind: v as ContactInput['kind'] })}
            data={[
              { value: 'person', label: 'Person' },
              { value: 'organization', label: 'Organization' },
            ]}
          />
          {values.kind === 'person' ? (
            <SimpleGrid cols={2}>
              <TextInput
                label="First name"
                value={values.first_name}
                onChange={(e) => set({ first_name: e.currentTarget.value })}
                error={errors.first_name}
              />
              <TextInput
                label="Last name"
                withAsterisk
                value={values.last_name}
                onChange={(e) => set({ last_name: e.currentTarget.value })}
                error={errors.last_name ?? (displayName(values) ? undefined : errors.name)}
              />
            </SimpleGrid>
          ) : (
            <TextInput
              label="Name"
              withAsterisk
              value={values.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              error={errors.name}
            />
          )}
          <SimpleGrid cols={2}>
            <TextInput
              label="Email"
              value={values.email}
              onChange={(e) => set({ email: e.currentTarget.value })}
              error={errors.email}
            />
            <TextInput
              label="Phone"
              value={values.phone}
              onChange={(e) => set({ phone: e.currentTarget.value })}
              error={errors.phone}
            />
          </SimpleGrid>
          {values.kind === 'person' ? (
            <SimpleGrid cols={3}>
              <TextInput
                label="Date of birth"
                type="date"
                value={values.dob}
                onChange={(e) => set({ dob: e.currentTarget.value })}
                error={errors.dob}
              />
              <Select
                label="Gender"
                clearable
                data={(genders.data ?? []).map((g) => ({ value: g.id, label: text(g.label) || text(g.name) }))}
                value={values.genderId || null}
                onChange={(v) => set({ genderId: v ?? '' })}
                error={errors.gender}
              />
              <TextInput
                label="SSN"
                autoComplete="off"
                placeholder={contact?.has_ssn ? `On file, ends ${text(contact.ssn_last4)}` : '123-45-6789'}
                description={contact?.has_ssn ? 'Leave blank to keep the SSN on file.' : undefined}
                value={values.ssn}
                onChange={(e) => {
                  set({ ssn: e.currentTarget.value });
                  setConfirmDuplicate(false);
                }}
                onBlur={async (e) => {
                  const ssn = e.currentTarget.value;
                  try {
                    const error = ssnErrorOf(await checkSsn(ssn));
                    setErrors(({ ssn: _, ...rest }) => (error ? { ...rest, ssn: error } : rest));
                  } catch (failed) {
                    setFailure(errorMessageOf(failed));
                  }
                }}
                error={errors.ssn}
              />
            </SimpleGrid>
          ) : null}
          {duplicateToConfirm ? (
            <Alert color="yellow" title="Duplicate SSN">
              <Stack gap="xs">
                <Text size="sm">
                  {SSN_TAKEN} {allowDuplicates.data ? 'Duplicate SSNs are allowed; confirm that this is intended.' : ''}
                </Text>
                <Checkbox
                  label="Save with the duplicate SSN"
                  checked={confirmDuplicate}
                  onChange={(e) => setConfirmDuplicate(e.currentTarget.checked)}
                />
              </Stack>
            </Alert>
          ) : null}
          <Text fw={600} size="sm">
            Address
          </Text>
          <SimpleGrid cols={2}>
            <Select
              label="Address type"
              clearable
              data={(addressTypes.data ?? []).map((t) => ({
                value: text(t.name),
                label: text(t.label) || text(t.name),
              }))}
              value={values.address.type || null}
              onChange={(v) => setAddress({ type: v ?? '' })}
            />
            <TextInput
              label="Address line 1"
              value={values.address.line1}
              onChange={(e) => setAddress({ line1: e.currentTarget.value })}
            />
          </SimpleGrid>
          <SimpleGrid cols={3}>
            <TextInput
              label="ZIP"
              inputMode="numeric"
              value={values.address.zip}
              onChange={(e) => {
                const zip = e.currentTarget.value;
                setAddress({ zip });
                void lookUpZip(zip.trim());
              }}
              error={errors['address.zip']}
              description={zipNote ?? undefined}
            />
            <TextInput
              label="City"
              value={values.address.city}
              onChange={(e) => setAddress({ city: e.currentTarget.value })}
            />
            <TextInput
              label="State"
              value={values.address.state}
              onChange={(e) => setAddress({ state: e.currentTarget.value })}
            />
          </SimpleGrid>
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={duplicateToConfirm && !confirmDuplicate}>
              Save contact
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
