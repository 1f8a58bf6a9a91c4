import { Alert, Button, FileInput, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ImportedDocument } from '../../shared/forms.js';
import { fileToBase64, importForm, messageOf, type FolderItem } from '../api.js';
import { folderOptions } from './documents-page.js';

/** Importing an AcroForm PDF into a folder; the server reads its fields and answers what is wrong in words. */
export function ImportFormModal({
  folderId: initialFolderId,
  folders,
  onClose,
  onDone,
}: {
  folderId: string | null;
  folders: FolderItem[];
  onClose: () => void;
  onDone: (created: ImportedDocument) => void;
}) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const [name, setName] = useState('');
  const [folderId, setFolderId] = useState<string | null>(initialFolderId);
  const [subject, setSubject] = useState<string | null>('policy');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: async () =>
      importForm(api, {
        name: name.trim(),
        subject: subject ?? 'policy',
        folder_id: Number(folderId),
        description,
        file_name: file!.name,
        content_base64: await fileToBase64(file!),
      }),
    onSuccess: (created) => {
      showToast({ message: `"${created.name}" imported with ${created.fields.length} fields.`, kind: 'success' });
      onDone(created);
    },
  });
  const submit = () => {
    const missing = !name.trim()
      ? 'A document name is required.'
      : !folderId
        ? 'Choose the folder for the form.'
        : !file
          ? 'Choose a PDF file.'
          : file.size > 5 * 1024 * 1024
            ? 'A PDF form is at most 5 MB.'
            : null;
    setProblem(missing);
    if (!missing) run.mutate();
  };
  return (
    <Modal opened onClose={onClose} title="Import PDF form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Select
            label="Folder"
            placeholder="Choose a folder"
            data={folderOptions(folders)}
            value={folderId}
            onChange={setFolderId}
            allowDeselect={false}
          />
          <Select
            label="Filled from"
            description="Which data points the form's fields may be mapped to."
            data={[
              { value: 'policy', label: 'A policy' },
              { value: 'claim', label: 'A claim' },
            ]}
            value={subject}
            onChange={setSubject}
            allowDeselect={false}
          />
          <FileInput label="PDF with form fields" accept="application/pdf" value={file} onChange={setFile} clearable />
          <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          {(problem || run.error) && <Alert color="red">{problem ?? messageOf(run.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={run.isPending}>
              Import
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
