import { Button, Group } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
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
 * for the line the server's reason is shown. Staff who may print and e-mail documents also get
 * "Print or e-mail": the declarations are made if need be, then the documents module's production
 * documents page opens on this policy's documents.
 */
export function DeclarationsButton({
  revisionId,
  policyId,
  label,
}: {
  revisionId: number;
  policyId: string;
  label: string;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const navigate = useNavigate();
  const canRead = useCan('documents:production-document', 'read').allowed;
  // Print and e-mail live on the documents module's production documents page (staff who see it).
  const mayUpdate = useCan('documents:production-document', 'update').allowed;
  const seesDocuments = useCan('ui:documents', 'ViewModule').allowed;
  const canDeliver = mayUpdate && seesDocuments;
  const deliver = useMutation({
    mutationFn: () => api.get<DecFile>('/policies/get-dec-file-id/', { query: { revision_id: revisionId } }),
    onSuccess: (file) => {
      if (file.file_id === null) {
        services.showToast({ message: file.detail ?? 'This revision has no declarations.', kind: 'info' });
        return;
      }
      navigate(`/documents/production?record_type=policy&record_id=${encodeURIComponent(policyId)}`);
    },
    onError: (error) => services.showToast({ message: (error as Error).message, kind: 'error' }),
  });
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
    <Group gap={4} wrap="nowrap">
      <Button size="xs" variant="light" loading={open.isPending} onClick={() => open.mutate()} aria-label={label}>
        Declarations
      </Button>
      {canDeliver && (
        <Button
          size="xs"
          variant="subtle"
          loading={deliver.isPending}
          onClick={() => deliver.mutate()}
          aria-label={`Print or e-mail ${label.replace(/^Declarations/, 'the declarations')}`}
        >
          Print or e-mail
        </Button>
      )}
    </Group>
  );
}
