import { Button, Checkbox, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { decimal, minValue, required, useApiClient, validateForm, type FormRule } from '@atrium/sdk';
import {
  addPayment,
  addReserve,
  PAYMENT_METHODS,
  RESERVE_CATEGORIES,
  type Posted,
  type ReserveCategory,
} from '../api/accounting-api.js';
import { useLookup } from '../api/claims-api.js';
import { errorMessageOf, newIdempotencyKey, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { ErrorAlert } from '@atrium/sdk';

/** Amounts: required, a plain decimal with at most 2 places (no float parsing; the server keeps decimals). */
const NOT_A_NUMBER: FormRule = {
  name: 'decimal',
  check: (value, field) =>
    typeof value === 'string' && value.trim() && !/^\d+(\.\d+)?$/.test(value.trim())
      ? `${field} must be a number.`
      : null,
};
export const AMOUNT_RULES = [required(), NOT_A_NUMBER, decimal(2), minValue(0)];

const exposureOptions = (exposures: Flat[]) =>
  exposures.map((e) => ({
    value: e.id,
    label: `${text(e.display_number || e.number)} ${text(e.exposure_name)}`.trim(),
  }));

/**
 * One Idempotency-Key per opened form: a double click or a retry after a lost answer sends the
 * same key, so the server makes one posting and replays its first answer. A new form, a new key.
 */
function useFormKey() {
  const [key, setKey] = useState(newIdempotencyKey);
  return { key, renew: () => setKey(newIdempotencyKey()) };
}

function postedMessage(posted: Posted, what: string) {
  return posted.transaction_status === 'pending_approval'
    ? `The ${what} exceeds your authority limit and is waiting for approval.`
    : `The ${what} was posted.`;
}

export function ReserveForm({
  exposures,
  opened,
  onClose,
  onPosted,
}: {
  exposures: Flat[];
  opened: boolean;
  onClose(): void;
  onPosted(message: string): void;
}) {
  const api = useApiClient();
  const { key, renew } = useFormKey();
  const [values, setValues] = useState({
    exposureId: exposures[0]?.id ?? '',
    category: 'indemnity',
    amount: '',
    comments: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={opened} onClose={onClose} title="Add reserve">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (busy) return;
          const found = validateForm(values, {
            exposureId: { label: 'Exposure', rules: [required()] },
            amount: { label: 'Amount', rules: AMOUNT_RULES },
          });
          setErrors(found as Record<string, string>);
          if (Object.keys(found).length > 0) return;
          setBusy(true);
          setFailure(null);
          try {
            const posted = await addReserve(
              api,
              { ...values, category: values.category as ReserveCategory, amount: values.amount.trim() },
              key,
            );
            renew();
            setValues({ ...values, amount: '', comments: '' });
            onPosted(postedMessage(posted, 'reserve'));
          } catch (error) {
            setFailure(new Error(errorMessageOf(error)));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack>
          <Select
            label="Exposure"
            data={exposureOptions(exposures)}
            value={values.exposureId || null}
            onChange={(v) => setValues({ ...values, exposureId: v ?? '' })}
            error={errors.exposureId}
          />
          <Select
            label="Reserve category"
            data={[...RESERVE_CATEGORIES]}
            value={values.category}
            onChange={(v) => setValues({ ...values, category: v ?? 'indemnity' })}
          />
          <TextInput
            label="New reserve amount"
            inputMode="decimal"
            value={values.amount}
            onChange={(e) => setValues({ ...values, amount: e.currentTarget.value })}
            error={errors.amount}
          />
          <Textarea
            label="Comments"
            value={values.comments}
            onChange={(e) => setValues({ ...values, comments: e.currentTarget.value })}
          />
          <ErrorAlert error={failure} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save reserve
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function PaymentForm({
  exposures,
  opened,
  onClose,
  onPosted,
}: {
  exposures: Flat[];
  opened: boolean;
  onClose(): void;
  onPosted(message: string): void;
}) {
  const api = useApiClient();
  const { key, renew } = useFormKey();
  const blank = {
    exposureId: exposures[0]?.id ?? '',
    category: 'indemnity',
    payeeId: '',
    amount: '',
    method: 'check',
    final_payment: false,
    comments: '',
  };
  const [values, setValues] = useState(blank);
  const payees = useLookup(PATHS.payees);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={opened} onClose={onClose} title="Add payment">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (busy) return;
          const found = validateForm(values, {
            exposureId: { label: 'Exposure', rules: [required()] },
            amount: { label: 'Amount', rules: AMOUNT_RULES },
          });
          setErrors(found as Record<string, string>);
          if (Object.keys(found).length > 0) return;
          setBusy(true);
          setFailure(null);
          try {
            const posted = await addPayment(
              api,
              { ...values, category: values.category as ReserveCategory, amount: values.amount.trim() },
              key,
            );
            renew();
            setValues(blank);
            onPosted(postedMessage(posted, 'payment'));
          } catch (error) {
            setFailure(new Error(errorMessageOf(error)));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack>
          <Select
            label="Exposure"
            data={exposureOptions(exposures)}
            value={values.exposureId || null}
            onChange={(v) => setValues({ ...values, exposureId: v ?? '' })}
            error={errors.exposureId}
          />
          <Select
            label="Reserve category"
            data={[...RESERVE_CATEGORIES]}
            value={values.category}
            onChange={(v) => setValues({ ...values, category: v ?? 'indemnity' })}
          />
          <Select
            label="Payee"
            clearable
            data={(payees.data ?? []).map((p) => ({ value: p.id, label: text(p.name) }))}
            value={values.payeeId || null}
            onChange={(v) => setValues({ ...values, payeeId: v ?? '' })}
          />
          <TextInput
            label="Payment amount"
            inputMode="decimal"
            value={values.amount}
            onChange={(e) => setValues({ ...values, amount: e.currentTarget.value })}
            error={errors.amount}
          />
          <Select
            label="Payment method"
            data={[...PAYMENT_METHODS]}
            value={values.method}
            onChange={(v) => setValues({ ...values, method: v ?? 'check' })}
          />
          <Checkbox
            label="Final payment (closes the reserve)"
            checked={values.final_payment}
            onChange={(e) => setValues({ ...values, final_payment: e.currentTarget.checked })}
          />
          <Textarea
            label="Comments"
            value={values.comments}
            onChange={(e) => setValues({ ...values, comments: e.currentTarget.value })}
          />
          <ErrorAlert error={failure} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save payment
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
