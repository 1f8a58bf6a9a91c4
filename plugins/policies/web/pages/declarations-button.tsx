import { Button } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';

interface DecFile {
  file_id: number | null;
  url: string | null;
  title: string | null;
  detail?: string;
}

/**
 * Opens a revision's declarations (the documents module's production document, docs/documents.md
 * "Declarations"): asks get-dec-file-id for the file, reads the PDF with the caller's token and
 * opens it in a new tab. Shown only to those who may read production documents; without a dec page
 * for the line the server's reason is shown.
 */
export function DeclarationsButton({ revisionId, label }: { revisionId: number; label: string }) {
  const api = useApiClient();
  const services = useHostServices();
  const canRead = useCan('documents:production-document', 'read').allowed;
  const open = useMutation({
    mutationFn: async () => {
      const file = await api.get<DecFile>('/policies/get-dec-file-id/', { query: { revision_id: revisionId } });
      if (file.file_id === null || !file.url) return file;
      const { blob } = await api.getBlob(file.url.replace(/^\/api/, ''));
      window.open(URL.createObjectURL(blob), '_blank', 'noopener');
      return file;
    },
    onSuccess: (file) => {
      if (file.file_id === null) {
        services.showToast({ message: file.detail ?? 'This revision has no declarations.', kind: 'info' });
      }
    },
    onError: (error) => services.showToast({ message: (error as Error).message, kind: 'error' }),
  });
  if (!canRead) return null;
  return (
    <Button size="xs" variant="light" loading={open.isPending} onClick={() => open.mutate()} aria-label={label}>
      Declarations
    </Button>
  );
}
