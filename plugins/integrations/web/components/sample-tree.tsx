import { Box, UnstyledButton, Text } from '@mantine/core';

/**
 * The sample payload as a tree of its fields; clicking one inserts its JSONata path (`data.claim_number`)
 * at the expression editor's cursor. Arrays show their first item's fields (JSONata maps a path over
 * every item). Field names that are not plain identifiers are quoted with backticks.
 */
const segment = (key: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `\`${key}\``);

export function SampleTree({
  value,
  onPick,
  disabled,
}: {
  value: unknown;
  onPick(path: string): void;
  disabled?: boolean;
}) {
  return (
    <Box component="ul" aria-label="Sample fields" m={0} pl={0} style={{ listStyle: 'none' }}>
      <Fields value={value} path="" onPick={onPick} disabled={disabled} depth={0} />
    </Box>
  );
}

function Fields({
  value,
  path,
  onPick,
  disabled,
  depth,
}: {
  value: unknown;
  path: string;
  onPick(path: string): void;
  disabled?: boolean;
  depth: number;
}) {
  const item = Array.isArray(value) ? value[0] : value;
  if (!item || typeof item !== 'object' || depth > 6) return null;
  return (
    <>
      {Object.entries(item as Record<string, unknown>).map(([key, child]) => {
        const here = path ? `${path}.${segment(key)}` : segment(key);
        const nested = child !== null && typeof child === 'object';
        return (
          <Box component="li" key={here} pl={depth * 12}>
            <UnstyledButton
              onClick={() => onPick(here)}
              disabled={disabled}
              aria-label={`Insert ${here}`}
              style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-sm)' }}
            >
              {key}
            </UnstyledButton>
            {!nested && (
              <Text span size="xs" c="dimmed" ml={6}>
                {JSON.stringify(child)}
              </Text>
            )}
            {nested && (
              <Box component="ul" m={0} pl={0} style={{ listStyle: 'none' }}>
                <Fields value={child} path={here} onPick={onPick} disabled={disabled} depth={depth + 1} />
              </Box>
            )}
          </Box>
        );
      })}
    </>
  );
}
