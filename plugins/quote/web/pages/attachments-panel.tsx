import { Anchor, Button, FileButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorAlert, formatDateTime, useApiClient, type ApiClient } from '@atrium/sdk';
import { quoteApi, type QuoteAttachment } from '../quote-api.js';

/** How long the object URL outlives the click: the browser has taken the bytes over by then. */
const REVOKE_AFTER_MS = 10_000;

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : bytes >= 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${bytes} bytes`;

/** The content route needs the bearer token: fetched with the client, saved through an object URL. */
async function download(api: ApiClient, number: string, file: QuoteAttachment) {
  const { blob } = await api.getBlob(`/quote/${encodeURIComponent(number)}/attachments/${file.id}/content/`);
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

/**
 * The quote's attachments: the list, a file attached by a direct upload to object storage (the
 * server answers the ticket; the bytes never pass through the API), and removal.
 */
export function AttachmentsPanel({ number, readOnly }: { number: string; readOnly: boolean }) {
  const api = useApiClient();
  const client = useQueryClient();
  const key = ['quote', number, 'attachments'];
  const list = useQuery({ queryKey: key, queryFn: () => quoteApi(api).attachments(number) });
  const attach = useMutation({
    mutationFn: async (file: File) => {
      const announced = await quoteApi(api).announceAttachment(number, {
        name: file.name,
        content_type: file.type || 'application/octet-stream',
        size: file.size,
        source: 'upload',
      });
      const form = new FormData();
      for (const [name, value] of Object.entries(announced.upload.fields)) form.append(name, value);
      form.append('file', file, file.name);
      const response = await fetch(announced.upload.url, { method: 'POST', body: form });
      if (!response.ok) throw new Error(`The file could not be uploaded (${response.status}).`);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => quoteApi(api).removeAttachment(number, id),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
  const files = list.data?.results ?? [];
  return (
    <Stack gap="xs">
      <Title order={3}>Attachments</Title>
      {files.length === 0 ? (
        <Text c="dimmed">No attachments.</Text>
      ) : (
        <Table aria-label="Attachments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>File</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Added</Table.Th>
              {readOnly ? null : <Table.Th>Remove</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td>
                  {f.uploaded ? (
                    <Anchor component="button" type="button" onClick={() => void download(api, number, f)}>
                      {f.name}
                    </Anchor>
                  ) : (
                    `${f.name} (not uploaded)`
                  )}
                </Table.Td>
                <Table.Td>{sizeText(f.size)}</Table.Td>
                <Table.Td>
                  {formatDateTime(f.created_at)} by {f.created_by}
                </Table.Td>
                {readOnly ? null : (
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${f.name}`}
                      loading={remove.isPending && remove.variables === f.id}
                      onClick={() => remove.mutate(f.id)}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {readOnly ? null : (
        <Group>
          <FileButton onChange={(file) => file && attach.mutate(file)}>
            {(props) => (
              <Button variant="default" loading={attach.isPending} {...props}>
                Attach a file
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            PDF, pictures, text, Word or Excel, up to 25 MB.
          </Text>
        </Group>
      )}
      {attach.error ? <ErrorAlert error={attach.error} /> : null}
      {remove.error ? <ErrorAlert error={remove.error} /> : null}
    </Stack>
  );
}
