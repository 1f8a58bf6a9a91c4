import { Select, TextInput } from '@mantine/core';
import { addRecovery, LEDGER_PATHS, RECOVERY_TYPES, type RecoveryInput } from '../api/accounting-api.js';
import { useLookup } from '../api/claims-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { moneyDefaults, MoneyForm, type MoneyFormProps } from './money-forms.js';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Add recovery: money received back on an exposure (salvage or subrogation), from a payor,
 * optionally naming the claim's party it concerns, with the received date and a pay code. The
 * shared money form (one Idempotency-Key per form) posts it; recoveries need no authority.
 */
export function RecoveryForm({ parties, ...props }: MoneyFormProps & { parties: Flat[] }) {
  const payors = useLookup(LEDGER_PATHS.payors);
  const blank: RecoveryInput = {
    ...moneyDefaults(props.exposures),
    recoveryType: 'salvage',
    receivedDate: today(),
    payorId: '',
    partyId: '',
    payCode: '',
  };
  return (
    <MoneyForm
      {...props}
      title="Add recovery"
      what="recovery"
      amountLabel="Amount received"
      blank={blank}
      post={addRecovery}
      before={(values, set) => (
        <>
          <Select
            label="Recovery type"
            data={RECOVERY_TYPES.map((t) => ({ value: t, label: t === 'salvage' ? 'Salvage' : 'Subrogation' }))}
            value={values.recoveryType}
            onChange={(v) => set({ recoveryType: (v ?? 'salvage') as RecoveryInput['recoveryType'] })}
          />
          <Select
            label="Payor"
            clearable
            searchable
            data={(payors.data ?? []).map((p) => ({ value: p.id, label: text(p.name) }))}
            value={values.payorId || null}
            onChange={(v) => set({ payorId: v ?? '' })}
          />
          <Select
            label="Party"
            clearable
            searchable
            data={parties.map((p) => ({ value: p.id, label: `${text(p.display_number)} ${text(p.name)}`.trim() }))}
            value={values.partyId || null}
            onChange={(v) => set({ partyId: v ?? '' })}
          />
        </>
      )}
      after={(values, set) => (
        <>
          <TextInput
            label="Received date"
            type="date"
            value={values.receivedDate}
            onChange={(e) => set({ receivedDate: e.currentTarget.value })}
          />
          <TextInput
            label="Pay code"
            value={values.payCode}
            onChange={(e) => set({ payCode: e.currentTarget.value })}
          />
        </>
      )}
    />
  );
}
