import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ConfirmButton, errorMessage, QueryState, useApiClient, useHostServices } from '@atrium/sdk';
import { contactDuplicates, mergeContact, type Contact } from '../contacts-api.js';
import { contactPageRoute } from '../routes.js';

const describe = (c: Contact) =>
  [c.emails[0]?.address, c.phones[0]?.number, c.has_ssn ? `SSN ${c.ssn}` : null].filter(Boolean).join(' · ') ||
  'No e-mail, phone or SSN on file.';

/**
 * Contacts that may be this one (same SSN, or the same name with a shared e-mail, phone or birth
 * date), each mergeable into this contact. Shown only to those who may merge (contacts:contact merge).
 */
export function DuplicatesCard({ contact }: { contact: Contact }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const duplicates = useQuery({
    queryKey: ['contacts', 'duplicates', contact.id],
    queryFn: () => contactDuplicates(api, contact.id),
  });
  if (duplicates.data?.length === 0) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Possible duplicates
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Merging moves the duplicate&apos;s details, notes, relations and books to {contact.name}; the duplicate is then
        removed, and its old links lead here.
      </Text>
      <QueryState query={duplicates}>
        {(rows) => (
          <Stack gap="xs">
            {rows.map((d) => (
              <Group key={d.id} justify="space-between" wrap="nowrap">
                <div>
                  <Anchor component={Link} to={contactPageRoute.link({ contactId: d.id })}>
                    {d.name}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {describe(d)}
                  </Text>
                </div>
                <ConfirmButton
                  label="duplicate"
                  verb="merge"
                  size="xs"
                  ariaLabel={`Merge ${d.name} (${d.id}) into this contact`}
                  onConfirm={async () => {
                    try {
                      await mergeContact(api, contact.id, d.id);
                      services.showToast({ message: `${d.name} was merged into this contact.`, kind: 'success' });
                    } catch (error) {
                      services.showToast({ message: errorMessage(error), kind: 'error' });
                    }
                    await queryClient.invalidateQueries({ queryKey: ['contacts'] });
                  }}
                >
                  Merge into this contact
                </ConfirmButton>
              </Group>
            ))}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}
