import { Alert, Button, Checkbox, Group, Modal, MultiSelect, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { mapServerFormErrors, type ApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { actionErrorMessageOf, flatten, isStale, resourceBody, type Flat } from '../api/jsonapi.js';
import { STALE_MESSAGE } from './stale-alert.js';

/**
 * One dialog for adding or editing a record of a claim (exposure, risk, injury, party …): the fields
 * are declared, required ones are checked on submit ('This field is required.'), and the server's
 * own errors land on their fields (by /data/attributes/<name> or /data/relationships/<name>) or
 * above the buttons. Relationship fields travel as `relationships`, the rest as `attributes`.
 */
export interface FieldSpec {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'select' | 'multiselect' | 'date' | 'checkbox' | 'money' | 'number';
  required?: boolean;
  options?: { value: string; label: string }[];
  /** Empty text is sent as null (to clear it) rather than ''; selects, dates and amounts always are. */
  nullable?: boolean;
  /** A to-one relationship of this JSON:API type (the value is the related id). */
  relationship?: string;
  description?: string;
}

export type FieldValues = Record<string, string | boolean | string[]>;

const MONEY = /^\d{1,12}(\.\d{1,2})?$/;

/** Client-side checks, in the spec's words; the server checks everything again. */
export function validateFields(fields: FieldSpec[], values: FieldValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'checkbox') continue;
    if (field.kind === 'multiselect') {
      if (field.required && (!Array.isArray(value) || value.length === 0))
        errors[field.name] = 'This field is required.';
      continue;
    }
    const textValue = typeof value === 'string' ? value.trim() : '';
    if (field.required && !textValue) errors[field.name] = 'This field is required.';
    else if (textValue && field.kind === 'money' && !MONEY.test(textValue))
      errors[field.name] = `${field.label} can not have more than 2 decimal places.`;
    else if (textValue && field.kind === 'number' && !/^\d{1,9}$/.test(textValue))
      errors[field.name] = `${field.label} must be 0 or more.`;
  }
  return errors;
}

/** The JSON:API body of a dialog's values: empty text is '' (null when `nullable`), other empty fields null. */
export function documentOf(type: string, fields: FieldSpec[], values: FieldValues, id?: string) {
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, { type: string; id: string } | null> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.relationship) {
      relationships[field.name] = typeof value === 'string' && value ? { type: field.relationship, id: value } : null;
    } else if (field.kind === 'checkbox') attributes[field.name] = value === true;
    else if (field.kind === 'multiselect') attributes[field.name] = Array.isArray(value) ? value : [];
    else if (field.kind === 'number') attributes[field.name] = value ? Number(value) : null;
    else {
      const textValue = typeof value === 'string' ? value.trim() : '';
      const plainText = !field.kind || field.kind === 'text' || field.kind === 'textarea';
      attributes[field.name] = textValue || (plainText && !field.nullable ? '' : null);
    }
  }
  return resourceBody(type, attributes, {
    id,
    relationships: Object.keys(relationships).length ? relationships : undefined,
  });
}

/** POST (no id) or PATCH (id) of a record; a refusal stays on the page (no redirect to /forbidden). */
export async function saveRecord(
  api: ApiClient,
  path: string,
  body: ReturnType<typeof documentOf>,
  options: { id?: string; headers?: Record<string, string> } = {},
): Promise<Flat> {
  const document = await api.request<JsonApiDocument<JsonApiResource>>(options.id ? `${path}${options.id}/` : path, {
    method: options.id ? 'PATCH' : 'POST',
    body,
    jsonApi: true,
    headers: options.headers,
    preventForbiddenRedirect: true,
  });
  return flatten(document.data);
}

export function RecordDialog({
  title,
  opened,
  fields,
  initial,
  submitLabel = 'Save',
  onClose,
  onSubmit,
  onReload,
}: {
  title: string;
  opened: boolean;
  fields: FieldSpec[];
  initial: FieldValues;
  submitLabel?: string;
  onClose(): void;
  /** Sends the values; a thrown error is shown on the form. */
  onSubmit(values: FieldValues): Promise<void>;
  /** For an If-Match write: a 412 says the record changed and offers this reload. */
  onReload?(): void;
}) {
  const [values, setValues] = useState<FieldValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (name: string, value: string | boolean | string[]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      const { [name]: _removed, ...rest } = e;
      return rest;
    });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateFields(fields, values);
    setErrors(found);
    setFormError(null);
    setStale(false);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (error) {
      if (isStale(error) && onReload) {
        setStale(true);
        return;
      }
      const mapped = mapServerFormErrors(error);
      const byField: Record<string, string> = {};
      for (const [key, message] of Object.entries(mapped.fields)) {
        const name = fields.some((f) => f.name === key) ? key : key.split('.')[0]!;
        if (fields.some((f) => f.name === name)) byField[name] = message;
      }
      setErrors(byField);
      if (Object.keys(byField).length === 0) setFormError(actionErrorMessageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {fields.map((field) => {
            const common = {
              label: field.label,
              description: field.description,
              required: field.required,
              error: errors[field.name],
            };
            const value = values[field.name];
            const textValue = typeof value === 'string' ? value : '';
            switch (field.kind) {
              case 'textarea':
                return (
                  <Textarea
                    key={field.name}
                    {...common}
                    value={textValue}
                    onChange={(e) => set(field.name, e.currentTarget.value)}
                  />
                );
              case 'select':
                return (
                  <Select
                    key={field.name}
                    {...common}
                    data={field.options ?? []}
                    value={textValue || null}
                    onChange={(v) => set(field.name, v ?? '')}
                    searchable
                    clearable={!field.required}
                  />
                );
              case 'multiselect':
                return (
                  <MultiSelect
                    key={field.name}
                    {...common}
                    data={field.options ?? []}
                    value={Array.isArray(value) ? value : []}
                    onChange={(v) => set(field.name, v)}
                    searchable
                  />
                );
              case 'checkbox':
                return (
                  <Checkbox
                    key={field.name}
                    label={field.label}
                    checked={value === true}
                    onChange={(e) => set(field.name, e.currentTarget.checked)}
                  />
                );
              default:
                return (
                  <TextInput
                    key={field.name}
                    {...common}
                    type={field.kind === 'date' ? 'date' : 'text'}
                    inputMode={field.kind === 'money' ? 'decimal' : field.kind === 'number' ? 'numeric' : undefined}
                    value={textValue}
                    onChange={(e) => set(field.name, e.currentTarget.value)}
                  />
                );
            }
          })}
          {formError ? (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          ) : null}
          {stale ? (
            <Alert color="orange" role="alert">
              <Group justify="space-between">
                <span>{STALE_MESSAGE}</span>
                <Button size="xs" variant="light" onClick={onReload}>
                  Reload
                </Button>
              </Group>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
