import { Button, Card, Group, Select, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { mapServerFormErrors, useApiClient, useHostServices } from '@atrium/sdk';
import { updateProductSettings, useLinesChanged, type Product } from '../catalog/lines-api.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { useCanWrite } from './shared.js';
import { FormModal, formErrorText } from './form-modal.js';

/** Parses "12, 6" into months; null when a term is not a whole number of months from 1 to 120. */
export function parseTerms(text: string): number[] | null {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.every((p) => /^\d+$/.test(p))) return null;
  const terms = parts.map(Number);
  return terms.every((t) => t >= 1 && t <= 120) ? [...new Set(terms)] : null;
}

/**
 * The selected product's settings (renumberAt, terms, baseTerm). They belong to the product, not
 * to a version, so they are editable whenever the user may update products.
 */
export function ProductSettingsCard({ product }: { product: Product }) {
  const canUpdate = useCanWrite(LINES_RESOURCES.product, 'update');
  const [editing, setEditing] = useState(false);
  const { renumberAt, terms, baseTerm } = product.settings;
  return (
    <Card withBorder aria-label="Product settings">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Settings of {product.label ?? product.name}
        </Title>
        {canUpdate && (
          <Button size="xs" variant="subtle" onClick={() => setEditing(true)}>
            Edit settings
          </Button>
        )}
      </Group>
      <Group gap="xl">
        <Text size="sm">Renumber at: {renumberAt ?? '—'}</Text>
        <Text size="sm">Terms: {terms.length ? terms.map((t) => `${t} months`).join(', ') : '—'}</Text>
        <Text size="sm">Base term: {baseTerm === null ? '—' : `${baseTerm} months`}</Text>
      </Group>
      <ProductSettingsModal opened={editing} product={product} onClose={() => setEditing(false)} />
    </Card>
  );
}

function ProductSettingsModal({ opened, product, onClose }: { opened: boolean; product: Product; onClose(): void }) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useLinesChanged();
  const [renumberAt, setRenumberAt] = useState('');
  const [termsText, setTermsText] = useState('');
  const [baseTerm, setBaseTerm] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setRenumberAt(product.settings.renumberAt ?? '');
    setTermsText(product.settings.terms.join(', '));
    setBaseTerm(product.settings.baseTerm === null ? null : String(product.settings.baseTerm));
    setErrors({});
    setFormError(null);
  }, [opened, product]);

  const terms = parseTerms(termsText);
  async function submit() {
    const local: Record<string, string> = {};
    if (terms === null) local.terms = 'Terms are whole months from 1 to 120, separated by commas.';
    else if (terms.length === 0) local.terms = 'A product needs at least one term.';
    else if (terms.length > 12) local.terms = 'A product has at most 12 terms.';
    if (baseTerm === null) local.baseTerm = 'Choose the base term.';
    else if (terms && !terms.includes(Number(baseTerm))) local.baseTerm = 'The base term must be one of the terms.';
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await updateProductSettings(api, product.id, {
        ...(renumberAt.trim() ? { renumberAt: renumberAt.trim() } : {}),
        terms: terms!,
        baseTerm: Number(baseTerm),
      });
      await changed();
      services.showToast({ message: `Settings of product '${product.name}' saved.`, kind: 'success' });
      onClose();
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      // The server names settings fields under `settings` (/settings/baseTerm).
      setErrors(Object.fromEntries(Object.entries(mapped.fields).map(([k, v]) => [k.replace(/^settings\./, ''), v])));
      setFormError(formErrorText(mapped));
    } finally {
      setBusy(false);
    }
  }

  const termOptions = (terms ?? []).map(String);
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={`Settings of ${product.name}`}
      formError={formError}
      busy={busy}
      onSave={submit}
    >
      <TextInput
        label="Renumber at"
        value={renumberAt}
        error={errors.renumberAt}
        onChange={(e) => setRenumberAt(e.currentTarget.value)}
      />
      <TextInput
        label="Terms (months)"
        description="Separated by commas, e.g. 12, 6"
        value={termsText}
        error={errors.terms}
        onChange={(e) => setTermsText(e.currentTarget.value)}
      />
      <Select
        label="Base term (months)"
        data={baseTerm && !termOptions.includes(baseTerm) ? [...termOptions, baseTerm] : termOptions}
        value={baseTerm}
        error={errors.baseTerm}
        onChange={setBaseTerm}
      />
    </FormModal>
  );
}
