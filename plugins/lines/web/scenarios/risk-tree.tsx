import { ActionIcon, Group, Menu, NavLink, Text } from '@mantine/core';
import type { RiskNode, RiskTypeDef } from './scenarios-api.js';

/**
 * The scenario's risk tree: select a risk to edit its state; add a child risk of a type allowed
 * under the risk's type; remove a risk (with everything below it). The root cannot be removed — a
 * reset starts the scenario over.
 */
export interface RiskTreeProps {
  root: RiskNode;
  riskTypes: readonly RiskTypeDef[];
  selectedId: number | null;
  readOnly: boolean;
  onSelect(risk: RiskNode): void;
  onAddChild(parent: RiskNode, riskType: string): void;
  onRemove(risk: RiskNode): void;
}

export function childTypesOf(riskTypes: readonly RiskTypeDef[], typeName: string): RiskTypeDef[] {
  return riskTypes.filter((t) => t.parentName !== null && t.parentName.toLowerCase() === typeName.toLowerCase());
}

export function RiskTree(props: RiskTreeProps) {
  return (
    <nav aria-label="Risks">
      <RiskBranch {...props} risk={props.root} depth={0} />
    </nav>
  );
}

function RiskBranch(props: RiskTreeProps & { risk: RiskNode; depth: number }) {
  const { risk, riskTypes, selectedId, readOnly, onSelect, onAddChild, onRemove, depth } = props;
  const typeLabel = riskTypes.find((t) => t.name === risk.type.name)?.label ?? risk.type.name;
  const allowed = childTypesOf(riskTypes, risk.type.name);
  const label = (
    <Group gap={4} wrap="nowrap" justify="space-between">
      <Text size="sm">
        {typeLabel}{' '}
        <Text span size="xs" c="dimmed">
          #{risk.id}
        </Text>
      </Text>
      {!readOnly && (
        <Group gap={2} wrap="nowrap" onClick={(event) => event.stopPropagation()}>
          {allowed.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon size="sm" variant="subtle" aria-label={`Add a risk under ${typeLabel} #${risk.id}`}>
                  +
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {allowed.map((type) => (
                  <Menu.Item key={type.name} onClick={() => onAddChild(risk, type.name)}>
                    Add {type.label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          {depth > 0 && (
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label={`Remove ${typeLabel} #${risk.id}`}
              onClick={() => onRemove(risk)}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      )}
    </Group>
  );
  return (
    <NavLink
      component="div"
      label={label}
      active={risk.id === selectedId}
      opened
      childrenOffset={16}
      onClick={() => onSelect(risk)}
      aria-current={risk.id === selectedId ? 'true' : undefined}
    >
      {risk.children.length > 0
        ? risk.children.map((child) => <RiskBranch key={child.id} {...props} risk={child} depth={depth + 1} />)
        : undefined}
    </NavLink>
  );
}
