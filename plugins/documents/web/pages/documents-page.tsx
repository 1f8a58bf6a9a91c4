import { Title } from '@mantine/core';

export default function DocumentsPage() {
  return <Title order={1}>Documents</Title>;
}
