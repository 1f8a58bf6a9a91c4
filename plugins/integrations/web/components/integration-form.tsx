import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';

export interface IntegrationFormValues {
  name: string;
  category: string;
  events: string[];
  definition: unknown;
}

/**
 * The fields of an integration, for New and for Edit: name, category, the events that start it
 * (topic prefixes, comma-separated) and the definition as JSON. The server checks the definition
 * against its schema; here only that it is JSON.
 */
export function IntegrationForm(props: {
  initial: { name: string; category: string; events: string[]; definition: string };
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: IntegrationFormValues) => void;
  cancel: ReactNode;
}) {
  const [name, setName] = useState(props.initial.name);
  const [category, setCategory] = useState(props.initial.category);
  const [events, setEvents] = useState(props.initial.events.join(', '));
  const [definition, setDefinition] = useState(props.initial.definition);
  let parsed: unknown;
  let parseError: string | null = null;
  try {
    parsed = JSON.parse(definition);
  } catch (error) {
    parseError = `The definition must be valid JSON: ${(error as Error).message}`;
  }
  const submit = () =>
    props.onSubmit({
      name,
      category,
      events: events
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
      definition: parsed,
    });
  return (
    <Stack maw={760}>
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label="Category" value={category} onChange={(e) => setCategory(e.currentTarget.value)} />
      <TextInput
        label="Events"
        description="Each event whose topic starts with one of these starts a run: topic prefixes, comma-separated (claims, claims.claim, * for all)"
        value={events}
        onChange={(e) => setEvents(e.currentTarget.value)}
      />
      <Textarea
        label="Definition"
        description="Steps: {name, type: 'map', from, to} runs a published data mapping; {name, type: 'http', url} posts the input."
        autosize
        minRows={8}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        value={definition}
        onChange={(e) => setDefinition(e.currentTarget.value)}
        error={parseError}
      />
      <Group>
        <Button onClick={submit} loading={props.busy} disabled={!name.trim() || parseError !== null}>
          {props.submitLabel}
        </Button>
        {props.cancel}
      </Group>
    </Stack>
  );
}
