import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { Ontology, TemplateComponent, TemplateParameter } from '@atrium/rating/rules';
import { useEffect, useMemo, useState } from 'react';
import {
  argumentError,
  initialValues,
  inputTypeOf,
  optionsOf,
  templateUseOf,
  withArguments,
  type FormValue,
} from './template-arguments.js';

/**
 * The template-argument form: when the component is a rule made from a template, one input per
 * parameter of the template (its label, documentation as the description, default as the
 * placeholder), checked as the server checks them, and written back into the component's tree.
 */
export function TemplateArgumentsForm(props: {
  text: string;
  templates: TemplateComponent[];
  ontology: Ontology | null;
  readOnly: boolean;
  saving: boolean;
  onApply: (text: string) => void;
}) {
  const found = useMemo(() => templateUseOf(props.text, props.templates), [props.text, props.templates]);
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [touched, setTouched] = useState(false);
  const key = found?.template ? `${found.template.name}:${JSON.stringify(found.use.values)}` : '';
  useEffect(() => {
    if (found?.template) setValues(initialValues(found.template, found.use));
    setTouched(false);
    // Reset when the use's values change in the text (typed in the editor, or saved).
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!found) return null;
  const { use, template } = found;
  if (!template)
    return (
      <Alert color="yellow" title="Template arguments">
        The template {use.template} is not a template of this effective date.
      </Alert>
    );
  const options = (p: TemplateParameter) => optionsOf(p, template, props.ontology);
  const errors = Object.fromEntries(
    template.parameters.map((p) => [p.name, argumentError(p, values[p.name] ?? '', options(p))]),
  );
  const valid = Object.values(errors).every((e) => e === null);
  const set = (name: string, value: FormValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    setTouched(true);
  };
  const submit = () => {
    setTouched(true);
    if (valid) props.onApply(withArguments(template, use, values));
  };
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label="Template arguments"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          Template arguments
        </Title>
        <Text size="sm" c="dimmed">
          This rule is made from the template {template.label ?? template.name}. Empty values take the template&apos;s
          default.
        </Text>
        {template.parameters.length === 0 && <Text size="sm">The template has no arguments.</Text>}
        {template.parameters.map((p) => {
          const label = p.label ?? p.name;
          const error = touched ? errors[p.name] : null;
          const common = {
            label,
            description: p.documentation,
            disabled: props.readOnly,
            error,
            maw: 480,
          };
          const value = values[p.name] ?? '';
          const placeholder = p.default !== undefined ? `Default: ${String(p.default)}` : undefined;
          switch (inputTypeOf(p)) {
            case 'checkbox':
              return (
                <Checkbox
                  key={p.name}
                  {...common}
                  checked={value === true}
                  onChange={(e) => set(p.name, e.currentTarget.checked)}
                />
              );
            case 'number':
              return (
                <NumberInput
                  key={p.name}
                  {...common}
                  placeholder={placeholder}
                  value={String(value)}
                  onChange={(v) => set(p.name, String(v))}
                  allowDecimal
                  hideControls
                />
              );
            case 'select':
              return (
                <Select
                  key={p.name}
                  {...common}
                  placeholder={placeholder}
                  data={options(p)}
                  searchable
                  clearable
                  value={String(value) || null}
                  onChange={(v) => set(p.name, v ?? '')}
                />
              );
            case 'date':
              return (
                <TextInput
                  key={p.name}
                  {...common}
                  type="date"
                  value={String(value)}
                  onChange={(e) => set(p.name, e.currentTarget.value)}
                />
              );
            default:
              return (
                <TextInput
                  key={p.name}
                  {...common}
                  placeholder={placeholder}
                  value={String(value)}
                  onChange={(e) => set(p.name, e.currentTarget.value)}
                />
              );
          }
        })}
        {!props.readOnly && template.parameters.length > 0 && (
          <Group>
            <Button size="xs" type="submit" loading={props.saving} disabled={touched && !valid}>
              Save arguments
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
