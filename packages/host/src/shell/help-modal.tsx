import { Anchor, Button, Checkbox, FileInput, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { submitSupportTicket, SUPPORT_TICKET_FAILURE, SUPPORT_TICKET_SUCCESS } from './support-ticket.js';
import { supportLinks } from './support-links.js';

function SupportTicketForm({ onDone }: { onDone(): void }) {
  const runtime = useHostRuntime();
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [ccs, setCcs] = useState('');
  const [stop, setStop] = useState(false);
  const [attachments, setAttachments] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [subjectError, setSubjectError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!subject.trim()) {
      setSubjectError('This field is required.');
      return;
    }
    setBusy(true);
    try {
      await submitSupportTicket(
        { subject, description, ccs, stop, attachments, url: window.location.href },
        runtime.requestHeaders(),
      );
      runtime.services.showToast({ message: SUPPORT_TICKET_SUCCESS, kind: 'success' });
      onDone();
    } catch {
      runtime.services.showToast({ message: SUPPORT_TICKET_FAILURE, kind: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Subject"
          required
          value={subject}
          error={subjectError}
          onChange={(e) => {
            setSubject(e.currentTarget.value);
            setSubjectError(null);
          }}
          onBlur={() => setSubjectError(subject.trim() ? null : 'This field is required.')}
        />
        <Textarea
          label="Description"
          autosize
          minRows={3}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <TextInput
          label="CC (e-mail addresses, comma-separated)"
          value={ccs}
          onChange={(e) => setCcs(e.currentTarget.value)}
        />
        <FileInput label="Attachments" multiple value={attachments} onChange={setAttachments} clearable />
        <Checkbox
          label="This problem stops me from working"
          checked={stop}
          onChange={(e) => setStop(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The Help button's modal: the help site and a support ticket (spec: Layout and navigation). */
export function HelpModal() {
  const runtime = useHostRuntime();
  const opened = useRuntimeStore(
    (r) => r.ui,
    (s) => s.helpOpen,
  );
  const signedIn = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session !== null,
  );
  const [ticketOpen, setTicketOpen] = useState(false);
  const close = () => {
    setTicketOpen(false);
    runtime.ui.getState().closeAll();
  };
  return (
    <Modal opened={opened} onClose={close} title="Help">
      {ticketOpen ? (
        <SupportTicketForm onDone={() => setTicketOpen(false)} />
      ) : (
        <Stack gap="md">
          <Text>
            Find guides and answers on the{' '}
            <Anchor href={supportLinks.helpSite} target="_blank" rel="noopener noreferrer">
              help site
            </Anchor>
            .
          </Text>
          {/* Tickets are filed on the user's behalf, so the form needs a session. */}
          <Button
            onClick={() => setTicketOpen(true)}
            disabled={!signedIn}
            title={signedIn ? undefined : 'Sign in to submit a ticket'}
          >
            Submit a Support Ticket
          </Button>
        </Stack>
      )}
    </Modal>
  );
}
