import { Button, Card, Checkbox, Code, Grid, Select, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PageHeader, useApiClient, type RiskEditButtonRowContext } from '@atrium/sdk';
import {
  CAPABILITY_LABELS,
  DEFAULT_CAPABILITIES,
  PLUGIN_CAPABILITIES,
  PLUGIN_SLOTS,
  SLOT_LABELS,
} from '../../shared/plugin-schemas.js';
import { ButtonRowPlugin } from '../runtime/button-row-plugin.js';
import type { EnabledPlugin } from '../runtime/enabled-plugins.js';
import { configurationProblem } from './plugins-page.js';
import { firstDetail } from '../plugins-api.js';

const SAMPLE_HTML = `<!doctype html>
<meta charset="utf-8" />
<script src="/api/integrations/plugins/sdk/plugin-client.js"></script>
<script>
  AtriumPlugin.connect({
    buttons: [{ id: 'roof', text: 'New roof' }],
    onButton: async (id, plugin) => {
      await plugin.updateRisk([{ op: 'replace', path: '/field_answers/roof_year', value: 2024 }]);
      plugin.toast('Roof year set');
    },
  });
</script>
`;

/** A sample of what `quote:risk-edit:button-row` hands a plugin: a Homeowners home risk. */
const SAMPLE_CONTEXT = {
  quoteNumber: 'Q-HARNESS',
  riskId: 1,
  riskType: 'home',
  fields: ['year_built', 'roof_year', 'construction', 'zip'],
  risk: { field_answers: { year_built: 1987, roof_year: null, construction: 'frame', zip: '78701' } },
  readOnly: false,
  childRiskTypes: [
    { name: 'scheduled_article', label: 'Scheduled article', fields: ['category', 'appraised_value', 'in_vault'] },
  ],
};

type SampleContext = typeof SAMPLE_CONTEXT;

/**
 * The local dev harness (docs/third-party-plugins.md "Dev harness"): a plugin author pastes the page
 * they are writing, chooses a slot, a sample context, a configuration and the capabilities, and
 * mounts it in the real runtime (sandboxed iframe, bridge, checks) of the running portal. The
 * plugin's risk changes apply to the sample, not to a quote; its navigation and API requests are
 * real, as the signed-in user.
 */
export default function PluginHarnessPage() {
  const api = useApiClient();
  const [slot, setSlot] = useState<string>(PLUGIN_SLOTS[0]);
  const [html, setHtml] = useState(SAMPLE_HTML);
  const [contextText, setContextText] = useState(JSON.stringify(SAMPLE_CONTEXT, null, 2));
  const [configuration, setConfiguration] = useState('{}');
  const [capabilities, setCapabilities] = useState<string[]>(DEFAULT_CAPABILITIES);
  const [mounted, setMounted] = useState<EnabledPlugin | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [sample, setSample] = useState<SampleContext | null>(null);
  const [created, setCreated] = useState<{ id: number; riskType: string; answers: Record<string, unknown> }[]>([]);

  const contextError = useMemo(() => {
    try {
      const parsed = JSON.parse(contextText) as Partial<SampleContext>;
      return parsed && typeof parsed === 'object' && parsed.risk && Array.isArray(parsed.fields)
        ? null
        : 'The context needs at least fields and risk.field_answers.';
    } catch (error) {
      return `The context is not valid JSON: ${(error as Error).message}`;
    }
  }, [contextText]);
  const configError = configurationProblem(configuration);

  const mount = useMutation({
    mutationFn: async () => {
      const preview = await api.post<{ src: string }>('/integrations/plugins/previews', { content: html });
      const parsed = JSON.parse(contextText) as Partial<SampleContext>;
      setSample({
        ...parsed,
        childRiskTypes: parsed.childRiskTypes ?? [],
        readOnly: parsed.readOnly ?? false,
      } as SampleContext);
      setCreated([]);
      setAttempt((n) => n + 1);
      setMounted({
        id: `harness-${Date.now()}`,
        name: 'Harness plugin',
        slot_name: slot,
        slot_label: SLOT_LABELS[slot as (typeof PLUGIN_SLOTS)[number]],
        registered_slot_name: slot,
        src: preview.src,
        configuration: JSON.parse(configuration) as Record<string, unknown>,
        capabilities,
      });
    },
  });

  const context: RiskEditButtonRowContext | null = sample && {
    ...sample,
    updateRisk: async (answers) =>
      setSample((s) => s && { ...s, risk: { field_answers: { ...s.risk.field_answers, ...answers } } }),
    createRisk: async (riskType, answers) => {
      const id = 1000 + created.length + 1;
      setCreated((list) => [...list, { id, riskType, answers }]);
      return id;
    },
  };

  return (
    <Stack>
      <PageHeader
        title="Plugin harness"
        description="Mount the plugin you are writing in a slot of this portal, against a sample context."
      />
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack>
            <Select
              label="Slot"
              data={PLUGIN_SLOTS.map((s) => ({ value: s, label: SLOT_LABELS[s] }))}
              value={slot}
              onChange={(v) => v && setSlot(v)}
              allowDeselect={false}
            />
            <Textarea
              label="Plugin HTML"
              autosize
              minRows={8}
              maxRows={20}
              styles={{ input: { fontFamily: 'monospace' } }}
              value={html}
              onChange={(e) => setHtml(e.currentTarget.value)}
            />
            <Textarea
              label="Sample context"
              autosize
              minRows={6}
              maxRows={16}
              styles={{ input: { fontFamily: 'monospace' } }}
              value={contextText}
              onChange={(e) => setContextText(e.currentTarget.value)}
              error={contextError}
            />
            <Textarea
              label="Configuration"
              autosize
              minRows={2}
              styles={{ input: { fontFamily: 'monospace' } }}
              value={configuration}
              onChange={(e) => setConfiguration(e.currentTarget.value)}
              error={configError}
            />
            <Checkbox.Group label="Capabilities" value={capabilities} onChange={setCapabilities}>
              <SimpleGrid cols={2} mt="xs" spacing="xs">
                {PLUGIN_CAPABILITIES.map((c) => (
                  <Checkbox key={c} value={c} label={CAPABILITY_LABELS[c]} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            {mount.isError && (
              <Text c="red" role="alert">
                {firstDetail(mount.error, 'The plugin could not be mounted. Please try again.')}
              </Text>
            )}
            <Button
              onClick={() => mount.mutate()}
              loading={mount.isPending}
              disabled={Boolean(contextError || configError || !html.trim())}
            >
              Mount plugin
            </Button>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder>
            <Stack>
              <Title order={3}>{mounted ? mounted.slot_label : 'Nothing mounted'}</Title>
              {mounted && context ? (
                <section aria-label="Slot">
                  <ButtonRowPlugin
                    key={attempt}
                    plugin={mounted}
                    context={context}
                    onRetry={() => setAttempt((n) => n + 1)}
                  />
                </section>
              ) : (
                <Text c="dimmed">Paste the plugin’s page and mount it.</Text>
              )}
              {sample ? (
                <>
                  <Text fw={500}>Risk answers</Text>
                  <Code block aria-label="Risk answers">
                    {JSON.stringify(sample.risk.field_answers, null, 2)}
                  </Code>
                  <Text fw={500}>Risks added</Text>
                  <Code block aria-label="Risks added">
                    {created.length ? JSON.stringify(created, null, 2) : 'None'}
                  </Code>
                </>
              ) : null}
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
