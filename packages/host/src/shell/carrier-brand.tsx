import { Group, Image, Text } from '@mantine/core';
import { useCarrier } from '../carrier/carrier-queries.js';
import { safeExternalUrl } from './support-links.js';

/** Carrier logo and name; a link to the carrier's website when it has one. */
export function CarrierBrand() {
  const { data: carrier } = useCarrier();
  const content = (
    <Group gap="xs" wrap="nowrap">
      <Image src={carrier?.logo_url || '/carrier-logo.svg'} alt="" w={32} h={32} fit="contain" />
      <Text fw={600} truncate>
        {carrier?.name ?? 'Atrium'}
      </Text>
    </Group>
  );
  const website = safeExternalUrl(carrier?.website);
  return website ? (
    <a
      href={website}
      target="_blank"
      rel="noopener noreferrer"
      className="atrium-carrier-link"
      aria-label={`${carrier?.name ?? 'Carrier'} website`}
    >
      {content}
    </a>
  ) : (
    content
  );
}
