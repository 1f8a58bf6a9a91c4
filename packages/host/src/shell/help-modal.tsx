import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  FileInput,
  Group,
  Modal,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import {
  EMAIL_SEARCH_MIN_LENGTH,
  submitSupportTicket,
  suggestEmails,
  SUPPORT_IMAGE_TYPES,
  SUPPORT_TICKET_FAILURE,
  SUPPORT_TICKET_MISSING,
  SUPPORT_TICKET_SUCCESS,
  supportTicketErrors,
} from './support-ticket.js';
import { supportLinks } from './support-links.js';

function SupportTicketForm({ onDone }: { onDone(): void }) {
  const runtime = useHostRuntime();
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [ccs, setCcs] = useState<string[]>([]);
  const [emailSearch, setEmailSearch] = useState('');
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [stop, setStop] = useState(false);
  const [attachments, setAttachments] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ReturnType<typeof supportTicketErrors>>({});
  const [missing, setMissing] = useState(false);

  // Contacts' e-mail addresses, searched from 3 characters (spec), debounced like quick search.
  useEffect(() => {
    const query = emailSearch.trim();
    if (query.length < EMAIL_SEARCH_MIN_LENGTH) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void suggestEmails(query, runtime.requestHeaders(), controller.signal).then((found) =>
        setSuggestions([...new Set(found.map((s) => s.email))]),
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [emailSearch, runtime]);

  const ticket = () => ({
    subject,
    description,
    ccs: ccs.join(','),
    stop,
    attachments,
    url: window.location.href,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = supportTicketErrors(ticket());
    setErrors(found);
    setMissing(Boolean(found.subject || found.description));
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await submitSupportTicket(ticket(), runtime.requestHeaders());
      runtime.services.showToast({ message: SUPPORT_TICKET_SUCCESS, kind: 'success' });
      onDone();
    } catch {
      runtime.services.showToast({ message: SUPPORT_TICKET_FAILURE, kind: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const blurCheck = (field: 'subject' | 'description', value: string) =>
    setErrors((e) => ({ ...e, [field]: value.trim() ? undefined : 'This field is required.' }));

  return (
    <form onSubmit={submit} noValidate aria-label="Support ticket">
      <Stack gap="sm">
        {missing ? (
          <Alert color="red" role="alert">
            {SUPPORT_TICKET_MISSING}
          </Alert>
        ) : null}
        <TextInput
          label="Subject"
          required
          value={subject}
          error={errors.subject}
          onChange={(e) => {
            setSubject(e.currentTarget.value);
            // Cleared while typing, not on blur: a message vanishing on blur moves what the user clicks next.
            if (e.currentTarget.value.trim()) setErrors((prev) => ({ ...prev, subject: undefined }));
          }}
          onBlur={() => blurCheck('subject', subject)}
        />
        <Textarea
          label="Description"
          required
          autosize
          minRows={3}
          value={description}
          error={errors.description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            if (e.currentTarget.value.trim()) setErrors((prev) => ({ ...prev, description: undefined }));
          }}
          onBlur={() => blurCheck('description', description)}
        />
        <TagsInput
          label="Include contacts"
          description="E-mail addresses to copy; type 3 characters to search contacts."
          value={ccs}
          onChange={setCcs}
          searchValue={emailSearch}
          onSearchChange={setEmailSearch}
          data={suggestions.filter((email) => !ccs.includes(email))}
          splitChars={[',', ' ', ';']}
          clearable
        />
        <FileInput
          label="Screenshots"
          description="Images only (PNG, JPEG, GIF or WebP)."
          multiple
          accept={SUPPORT_IMAGE_TYPES.join(',')}
          value={attachments}
          onChange={(files) => {
            setAttachments(files);
            setErrors((e) => ({ ...e, attachments: undefined }));
          }}
          error={errors.attachments}
          clearable
        />
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
