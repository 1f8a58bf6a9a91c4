import { useState } from 'react';
import { Alert, Button, Group, MultiSelect, Paper, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorAlert, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { useClaimByNumber } from '../api/claims-api.js';
import {
  CONTACT_SEARCH_MIN_LENGTH,
  emailKeys,
  sendClaimEmail,
  sendClaimEmailAgain,
  useAttachableFiles,
  useClaimEmails,
  useRecipientSuggestions,
  type ClaimEmail,
} from '../api/email-api.js';
import { errorMessageOf, text } from '../api/jsonapi.js';
import { useOpenClaim } from '../open-claim.js';
import { StatusBadge } from '@atrium/sdk';
import { emailStatusLabels } from '../claims-labels.js';

/** The mail service's note on mails kept while no SMTP server is configured (docs/mail.md). */
const NOT_CONFIGURED = 'not sent: no mail server configured';
const ADDRESS = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

const when = (value: string | null) => (value ? text(value).replace('T', ' ').slice(0, 16) : '');
const sentence = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** What happened to one mail, in words: why it waits, why it failed, when it is tried again. */
function deliveryNote(mail: ClaimEmail): string | null {
  if (mail.status === 'sent') return `Sent ${when(mail.sent_at)}${mail.last_error ? ` · ${mail.last_error}` : ''}`;
  if (mail.status === 'queued' && mail.last_error === NOT_CONFIGURED) return `${sentence(NOT_CONFIGURED)}.`;
  if (mail.status === 'failed') {
    const retry = mail.next_attempt_at ? ` Trying again at ${when(mail.next_attempt_at)}.` : '';
    return `${mail.last_error ?? 'Not sent.'} (attempt ${mail.attempts})${retry}`;
  }
  return null;
}

/** "Send again" for a mail that failed and is not retried any more. */
function SendAgain({ claimId, mail }: { claimId: string; mail: ClaimEmail }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const again = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await sendClaimEmailAgain(api, claimId, mail.id);
      await queryClient.invalidateQueries({ queryKey: emailKeys.list(claimId) });
      showToast({ message: 'E-mail queued for sending again.', kind: 'success' });
    } catch (error) {
      setProblem(errorMessageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="compact-xs" variant="light" mt={4} loading={busy} onClick={() => void again()}>
        Send again
      </Button>
      {problem ? (
        <Text size="xs" c="red" role="alert">
          {problem}
        </Text>
      ) : null}
    </>
  );
}

function EmailItem({ mail, claimId, canSend }: { mail: ClaimEmail; claimId: string; canSend: boolean }) {
  const note = deliveryNote(mail);
  return (
    <Paper withBorder p="xs" aria-label={`E-mail ${mail.subject}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={600} lineClamp={1}>
          {mail.subject}
        </Text>
        <StatusBadge labels={emailStatusLabels} value={mail.status} />
      </Group>
      <Text size="xs">To: {mail.to.join(', ')}</Text>
      {mail.cc.length ? <Text size="xs">Cc: {mail.cc.join(', ')}</Text> : null}
      {mail.attachments.length ? (
        <Text size="xs">Attachments: {mail.attachments.map((a) => a.filename).join(', ')}</Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {mail.created_by} · {when(mail.created_at)}
      </Text>
      {note ? (
        <Text size="xs" c={mail.status === 'failed' ? 'red' : mail.status === 'sent' ? 'dimmed' : 'orange'}>
          {note}
        </Text>
      ) : null}
      {canSend && mail.status === 'failed' && !mail.next_attempt_at ? (
        <SendAgain claimId={claimId} mail={mail} />
      ) : null}
    </Paper>
  );
}

function ComposeForm({ claimId, onDone }: { claimId: string; onDone: () => void }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canAttach = useCan('claims:attachment', 'read');
  const [to, setTo] = useState<string[]>([]);
  const [cc, setCc] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [attachmentIds, setAttachmentIds] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const suggestions = useRecipientSuggestions(claimId, search, true);
  const files = useAttachableFiles(claimId, canAttach.allowed);

  // Addresses only (TagsInput takes strings); parties first, as the server orders them.
  const data = [...new Set((suggestions.data ?? []).map((r) => r.email))];

  const submit = async () => {
    setProblem(null);
    const bad = [...to, ...cc].find((address) => !ADDRESS.test(address));
    if (to.length === 0) return setProblem('Add at least one recipient.');
    if (bad) return setProblem(`'${bad}' is not a valid e-mail address.`);
    if (!subject.trim()) return setProblem('Enter a subject.');
    if (!body.trim()) return setProblem('Enter the message.');
    setSending(true);
    try {
      await sendClaimEmail(api, claimId, { to, cc, subject, body, attachment_ids: attachmentIds });
      await queryClient.invalidateQueries({ queryKey: emailKeys.list(claimId) });
      showToast({ message: 'E-mail queued for sending.', kind: 'success' });
      onDone();
    } catch (error) {
      setProblem(errorMessageOf(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="xs" component="form" aria-label="Compose e-mail" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <TagsInput
        label="To"
        placeholder="Party or contact e-mail"
        description={`Claim parties are suggested; type ${CONTACT_SEARCH_MIN_LENGTH} characters to search contacts.`}
        data={data}
        value={to}
        onChange={setTo}
        searchValue={search}
        onSearchChange={setSearch}
        splitChars={[',', ';', ' ']}
        clearable
      />
      <TagsInput label="Cc" value={cc} onChange={setCc} data={data} splitChars={[',', ';', ' ']} />
      <TextInput label="Subject" value={subject} onChange={(e) => setSubject(e.currentTarget.value)} />
      <Textarea label="Message" rows={5} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
      {canAttach.allowed ? (
        <MultiSelect
          label="Attachments"
          placeholder={files.data?.length === 0 ? 'The claim has no attachments' : 'Choose claim attachments'}
          data={(files.data ?? []).map((f) => ({ value: f.id, label: `${f.folder} / ${f.name}` }))}
          value={attachmentIds}
          onChange={setAttachmentIds}
          searchable
        />
      ) : null}
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <Group gap="xs">
        <Button type="submit" size="xs" loading={sending}>
          Send
        </Button>
        <Button variant="default" size="xs" onClick={onDone} disabled={sending}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

function ClaimEmails({ claimNumber }: { claimNumber: string }) {
  const claim = useClaimByNumber(claimNumber);
  const claimId = claim.data?.claim.id;
  const canSend = useCan('claims:email', 'create');
  const list = useClaimEmails(claimId);
  const [composing, setComposing] = useState(false);
  if (claim.error) return <ErrorAlert error={claim.error} />;
  if (list.error) return <ErrorAlert error={list.error} />;
  if (!claimId || !list.data) return <Text size="sm">Loading e-mails…</Text>;
  return (
    <Stack gap="sm">
      {list.data.mailConfigured ? null : (
        <Alert color="orange" title="No mail server configured">
          E-mails are kept in the outbox, not sent, until an administrator configures a mail server.
        </Alert>
      )}
      {canSend.allowed && !composing ? (
        <Group>
          <Button size="xs" onClick={() => setComposing(true)}>
            Compose e-mail
          </Button>
        </Group>
      ) : null}
      {composing ? <ComposeForm claimId={claimId} onDone={() => setComposing(false)} /> : null}
      {list.data.emails.length === 0 ? (
        <Text size="sm">No e-mails sent from claim {claimNumber} yet.</Text>
      ) : (
        <Stack gap="xs" aria-label={`E-mails of claim ${claimNumber}`}>
          {list.data.emails.map((mail) => (
            <EmailItem key={mail.id} mail={mail} claimId={claimId} canSend={canSend.allowed} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Activity sidebar "Claim Outbound Email": the open claim's e-mails and a compose form. */
export default function ClaimOutboundEmailPanel() {
  const claimNumber = useOpenClaim();
  const canRead = useCan('claims:email', 'read');
  if (!claimNumber) return <Text size="sm">Open a claim to see and send its e-mails.</Text>;
  if (canRead.pending) return <Text size="sm">Loading e-mails…</Text>;
  if (!canRead.allowed) return <Text size="sm">You may not see the e-mails of this claim.</Text>;
  return <ClaimEmails claimNumber={claimNumber} />;
}
