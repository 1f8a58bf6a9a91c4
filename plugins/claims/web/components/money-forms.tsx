import { Button, Checkbox, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import {
  decimal,
  ErrorAlert,
  minValue,
  required,
  useApiClient,
  validateForm,
  type ApiClient,
  type FormRule,
} from '@atrium/sdk';
import {
  addPayment,
  addReserve,
  PARTY_PAYEE,
  RESERVE_CATEGORIES,
  type Posted,
  type ReserveCategory,
} from '../api/accounting-api.js';
import { useClaimCollection, useLookup, usePaymentMethods } from '../api/claims-api.js';
import { errorMessageOf, newIdempotencyKey, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';

/** Amounts: required, a plain decimal with at most 2 places (no float parsing; the server keeps decimals). */
const NOT_A_NUMBER: FormRule = {
  name: 'decimal',
  check: (value, field) =>
    typeof value === 'string' && value.trim() && !/^\d+(\.\d+)?$/.test(value.trim())
      ? `${field} must be a number.`
      : null,
};
export const AMOUNT_RULES = [required(), NOT_A_NUMBER, decimal(2), minValue(0)];

export const exposureOptions = (exposures: Flat[]) =>
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

/** What every money form has: the exposure, the reserve category, the amount and comments. */
export interface MoneyValues {
  exposureId: string;
  category: ReserveCategory;
  amount: string;
  comments: string;
}

export interface MoneyFormProps {
  exposures: Flat[];
  opened: boolean;
  onClose(): void;
  onPosted(message: string): void;
}

/** The fields a form adds around the shared ones, given its values, a setter and the field errors. */
type Slot<V> = (values: V, set: (patch: Partial<V>) => void, errors: Record<string, string>) => ReactNode;

/**
 * The shared money form: a modal with exposure, reserve category, amount and comments, validated
 * with the SDK rules, posted once per Idempotency-Key, the server's refusal shown in the form. A
 * reserve, payment or recovery form only names its title, its own fields (`before` and `after`
 * the amount) and how it posts.
 */
export function MoneyForm<V extends MoneyValues>({
  title,
  what,
  amountLabel,
  blank,
  post,
  before,
  after,
  rules = {},
  exposures,
  opened,
  onClose,
  onPosted,
}: MoneyFormProps & {
  title: string;
  /** 'reserve', 'payment', 'recovery': the save button and the toast name it. */
  what: string;
  amountLabel: string;
  /** The values of a new form (exposure and category defaults included). */
  blank: V;
  post(api: ApiClient, values: V, key: string): Promise<Posted>;
  before?: Slot<V>;
  after?: Slot<V>;
  /** The form's own fields' rules (field → label and rules), checked with the shared ones. */
  rules?: Record<string, { label: string; rules: FormRule[] }>;
}) {
  const api = useApiClient();
  const { key, renew } = useFormKey();
  const [values, setValues] = useState<V>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<V>) => setValues((current) => ({ ...current, ...patch }));
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (busy) return;
          const found = validateForm(values as unknown as Record<string, unknown>, {
            exposureId: { label: 'Exposure', rules: [required()] },
            amount: { label: 'Amount', rules: AMOUNT_RULES },
            ...rules,
          });
          setErrors(found as Record<string, string>);
          if (Object.keys(found).length > 0) return;
          setBusy(true);
          setFailure(null);
          try {
            const posted = await post(api, { ...values, amount: values.amount.trim() }, key);
            renew();
            setValues({ ...blank, exposureId: values.exposureId });
            onPosted(postedMessage(posted, what));
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
            onChange={(v) => set({ exposureId: v ?? '' } as Partial<V>)}
            error={errors.exposureId}
          />
          <Select
            label="Reserve category"
            data={[...RESERVE_CATEGORIES]}
            value={values.category}
            onChange={(v) => set({ category: (v ?? 'indemnity') as ReserveCategory } as Partial<V>)}
          />
          {before?.(values, set, errors)}
          <TextInput
            label={amountLabel}
            inputMode="decimal"
            value={values.amount}
            onChange={(e) => set({ amount: e.currentTarget.value } as Partial<V>)}
            error={errors.amount}
          />
          {after?.(values, set, errors)}
          <Textarea
            label="Comments"
            value={values.comments}
            onChange={(e) => set({ comments: e.currentTarget.value } as Partial<V>)}
          />
          <ErrorAlert error={failure} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save {what}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The first exposure and indemnity: what a new money form starts with. */
export const moneyDefaults = (exposures: Flat[]): MoneyValues => ({
  exposureId: exposures[0]?.id ?? '',
  category: 'indemnity',
  amount: '',
  comments: '',
});

export function ReserveForm(props: MoneyFormProps) {
  return (
    <MoneyForm
      {...props}
      title="Add reserve"
      what="reserve"
      amountLabel="New reserve amount"
      blank={moneyDefaults(props.exposures)}
      post={addReserve}
    />
  );
}

/**
 * Who a payment may go to: the claim's own parties first (picked, one becomes a payee on posting),
 * then the payees kept in the payees list; searchable as you type.
 */
export function payeeOptions(parties: Flat[], payees: Flat[]) {
  const fromParties = parties.map((p) => ({
    value: `${PARTY_PAYEE}${p.id}`,
    label: `${text(p.name)} (${partyRoleLabel(text(p.role))})`,
  }));
  const others = payees.filter((p) => !p.party_id).map((p) => ({ value: p.id, label: text(p.name) }));
  return [
    ...(fromParties.length ? [{ group: 'Parties on this claim', items: fromParties }] : []),
    ...(others.length ? [{ group: 'Payees', items: others }] : []),
  ];
}

const partyRoleLabel = (role: string) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : 'Party');

export function PaymentForm(props: MoneyFormProps) {
  const payees = useLookup(PATHS.payees);
  const parties = useClaimCollection(PATHS.parties, text(props.exposures[0]?.claim_id) || undefined);
  const methods = usePaymentMethods(true);
  return (
    <MoneyForm
      {...props}
      title="Add payment"
      what="payment"
      amountLabel="Payment amount"
      blank={{ ...moneyDefaults(props.exposures), payeeId: '', method: '', final_payment: false }}
      post={addPayment}
      rules={{ method: { label: 'Payment method', rules: [required()] } }}
      before={(values, set) => (
        <Select
          label="Payee"
          clearable
          searchable
          nothingFoundMessage="No party or payee matches."
          data={payeeOptions(parties.data?.items ?? [], payees.data ?? [])}
          value={values.payeeId || null}
          onChange={(v) => set({ payeeId: v ?? '' })}
        />
      )}
      after={(values, set, errors) => (
        <>
          <Select
            label="Payment method"
            required
            placeholder={methods.isPending ? 'Loading payment methods…' : 'Choose a payment method'}
            data={methods.options}
            value={values.method || null}
            onChange={(v) => set({ method: v ?? '' })}
            error={errors.method ?? (methods.error ? errorMessageOf(methods.error) : undefined)}
          />
          <Checkbox
            label="Final payment (closes the reserve)"
            checked={values.final_payment}
            onChange={(e) => set({ final_payment: e.currentTarget.checked })}
          />
        </>
      )}
    />
  );
}
