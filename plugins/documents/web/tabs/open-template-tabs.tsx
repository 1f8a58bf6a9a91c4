import { ActionIcon, Button, Group, Modal, Text } from '@mantine/core';
import IconX from '@tabler/icons-react/icons/IconX';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { documentsRoute, documentsTemplateRoute } from '../routes.js';
import { openTemplates, useOpenTemplates, type OpenTab } from './open-templates.js';

/**
 * The open templates as tabs (on /documents and above a template): each opens its template with
 * what was typed in it kept, a dot marks unsaved changes, and × closes it — asking first when it has
 * unsaved changes. Links and close buttons side by side (no button inside a tab), so every control
 * is reachable by keyboard.
 */
export function OpenTemplateTabs({ activeId }: { activeId?: string }) {
  const { tabs, buffers } = useOpenTemplates();
  const navigate = useNavigate();
  const [closing, setClosing] = useState<OpenTab | null>(null);
  if (tabs.length === 0) return null;

  const close = (tab: OpenTab) => {
    const next = openTemplates.close(tab.id);
    setClosing(null);
    if (tab.id !== activeId) return;
    navigate(next ? documentsTemplateRoute.link({ templateId: next.id }) : documentsRoute.link({}));
  };

  return (
    <nav aria-label="Open templates">
      <Group gap={4} wrap="wrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        {tabs.map((tab) => {
          const active = tab.id === activeId;
          const unsaved = tab.id in buffers;
          return (
            <Group
              key={tab.id}
              gap={0}
              wrap="nowrap"
              style={{
                borderBottom: active ? '2px solid var(--mantine-primary-color-filled)' : '2px solid transparent',
              }}
            >
              <Button
                component={Link}
                to={documentsTemplateRoute.link({ templateId: tab.id })}
                variant="subtle"
                size="xs"
                color={active ? undefined : 'gray'}
                aria-current={active ? 'page' : undefined}
              >
                {tab.name}
                {unsaved && (
                  <Text component="span" ml={6} aria-label="unsaved changes" title="Unsaved changes">
                    ●
                  </Text>
                )}
              </Button>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={`Close ${tab.name}`}
                onClick={() => (unsaved ? setClosing(tab) : close(tab))}
              >
                <IconX size={14} />
              </ActionIcon>
            </Group>
          );
        })}
      </Group>
      {closing && (
        <Modal opened onClose={() => setClosing(null)} title={`Close ${closing.name}?`}>
          <Text size="sm">Its unsaved changes will be discarded.</Text>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setClosing(null)}>
              Keep it open
            </Button>
            <Button color="red" onClick={() => close(closing)}>
              Discard and close
            </Button>
          </Group>
        </Modal>
      )}
    </nav>
  );
}
