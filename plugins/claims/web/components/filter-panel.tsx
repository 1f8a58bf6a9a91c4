import { Badge, CloseButton, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { assertFilterDefinitions, formatFilterBadges, type ActiveFilters, type FilterDefinition } from '@atrium/sdk';

/**
 * A filter panel over the SDK's filter definitions: select filters as dropdowns, form filters as
 * text boxes applied on Enter or blur, and every active value as a removable badge (the SDK's
 * badge text). The definitions are checked once, so a bad definition fails in the plugin's tests.
 */
export function FilterPanel({
  definitions,
  value,
  onChange,
}: {
  definitions: FilterDefinition[];
  value: ActiveFilters;
  onChange(next: ActiveFilters): void;
}) {
  assertFilterDefinitions(definitions);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const set = (name: string, next: string | null) => onChange({ ...value, [name]: next || undefined });
  const badges = formatFilterBadges(definitions, value);
  return (
    <div>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {definitions.map((def) =>
          def.type === 'form' ? (
            <TextInput
              key={def.name}
              label={def.label}
              size="xs"
              w={140}
              value={drafts[def.name] ?? String(value[def.name] ?? '')}
              onChange={(e) => setDrafts({ ...drafts, [def.name]: e.currentTarget.value })}
              onBlur={() => drafts[def.name] !== undefined && set(def.name, drafts[def.name]!.trim())}
              onKeyDown={(e) => {
                if (e.key === 'Enter') set(def.name, (drafts[def.name] ?? '').trim());
              }}
            />
          ) : (
            <Select
              key={def.name}
              label={def.label}
              size="xs"
              w={160}
              clearable
              data={(def.options ?? []).map((o) => ({ value: o.name, label: o.label }))}
              value={typeof value[def.name] === 'string' ? (value[def.name] as string) : null}
              onChange={(next) => set(def.name, next)}
            />
          ),
        )}
      </Group>
      {badges.length > 0 ? (
        <Group gap="xs" mt="xs" aria-label="Active filters">
          {badges.map((badge) => (
            <Badge
              key={badge.key}
              variant="light"
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label={`Remove filter ${badge.label}`}
                  onClick={() => {
                    setDrafts({ ...drafts, [badge.filter]: '' });
                    set(badge.filter, null);
                  }}
                />
              }
            >
              {badge.label}: {badge.value}
            </Badge>
          ))}
        </Group>
      ) : null}
    </div>
  );
}
