import type { SeedContext } from '@atrium/sdk/server';
import { createHash } from 'node:crypto';
import { asset, component, folder, importedDocument, template, version } from '../tables.js';
import { readFields } from '../forms/acroform.js';
import { writeDeclarationsSettings } from '../declarations/settings.js';
import { createDemoStateForm, STATE_FORM_MAPPING, STATE_FORM_NAME } from './demo-state-form.js';
import {
  ATRIUM_LOGO_SVG,
  AUTO_DECLARATIONS,
  CLAIM_ACKNOWLEDGEMENT,
  HOMEOWNERS_DECLARATIONS,
  QUOTE_SUMMARY,
  SIGNATURE_BLOCK,
} from './demo-templates.js';

/**
 * Demo documents: the component "signature-block" and the asset "atrium-logo.svg" (used by the claim
 * letter); Policies › Homeowners › "Homeowners declarations page", Policies › Auto › "Personal auto
 * declarations page" and Claims › Letters › "Claim acknowledgement letter", each with a version
 * published effective 2026-01-01, plus an empty "Commercial" folder (shown disabled in the tree), and in Policies › Homeowners the imported Maine disclosure
 * form (an AcroForm made with pdf-lib) with its mapping, published; Quotes › "Quote summary", the
 * quote document agents e-mail from the quote page.
 */
export async function seedDemoDocuments({ tx }: SeedContext): Promise<void> {
  // The claim letter imports this component and shows this logo.
  await tx.insert(component).values({
    name: 'signature-block',
    description: 'The closing and signature of a letter: name and department.',
    source: SIGNATURE_BLOCK,
    updatedBy: 'author@atrium.test',
  });
  const logo = Buffer.from(ATRIUM_LOGO_SVG);
  await tx.insert(asset).values({
    name: 'atrium-logo.svg',
    mimeType: 'image/svg+xml',
    contentBase64: logo.toString('base64'),
    sha256: createHash('sha256').update(logo).digest('hex'),
    byteSize: logo.length,
    createdBy: 'author@atrium.test',
  });
  const [policies] = await tx.insert(folder).values({ name: 'Policies' }).returning({ id: folder.id });
  const [homeowners] = await tx
    .insert(folder)
    .values({ name: 'Homeowners', parentId: policies!.id })
    .returning({ id: folder.id });
  const [auto] = await tx.insert(folder).values({ name: 'Auto', parentId: policies!.id }).returning({ id: folder.id });
  // Nothing in it yet: the tree shows an empty folder disabled.
  await tx.insert(folder).values({ name: 'Commercial', parentId: policies!.id });
  const [claims] = await tx.insert(folder).values({ name: 'Claims' }).returning({ id: folder.id });
  const [letters] = await tx
    .insert(folder)
    .values({ name: 'Letters', parentId: claims!.id })
    .returning({ id: folder.id });
  const [quotes] = await tx.insert(folder).values({ name: 'Quotes' }).returning({ id: folder.id });

  const specs = [
    {
      folderId: homeowners!.id,
      name: 'Homeowners declarations page',
      description: 'The declarations page printed with every homeowners policy.',
      subject: 'policy',
      source: HOMEOWNERS_DECLARATIONS,
    },
    {
      folderId: auto!.id,
      name: 'Personal auto declarations page',
      description: 'The declarations page printed with every personal auto policy.',
      subject: 'policy',
      source: AUTO_DECLARATIONS,
    },
    {
      folderId: letters!.id,
      name: 'Claim acknowledgement letter',
      description: 'Sent to the claimant when a claim is opened.',
      subject: 'claim',
      source: CLAIM_ACKNOWLEDGEMENT,
    },
    {
      folderId: quotes!.id,
      name: 'Quote summary',
      description: 'The quote e-mailed to the insured: dates, premium, answers and coverages.',
      subject: 'quote',
      source: QUOTE_SUMMARY,
    },
  ];
  const templateIds: number[] = [];
  for (const spec of specs) {
    const [row] = await tx
      .insert(template)
      .values({ folderId: spec.folderId, name: spec.name, description: spec.description, subject: spec.subject })
      .returning({ id: template.id });
    templateIds.push(row!.id);
    await tx.insert(version).values({
      templateId: row!.id,
      number: 1,
      name: 'January 2026',
      description: 'First edition.',
      effectiveDate: '2026-01-01',
      status: 'published',
      source: spec.source,
      createdBy: 'author@atrium.test',
      publishedBy: 'author@atrium.test',
      publishedAt: new Date('2025-12-15T12:00:00Z'),
    });
  }

  const pdf = await createDemoStateForm();
  const { fields, pageCount } = await readFields(pdf);
  const [form] = await tx
    .insert(importedDocument)
    .values({
      folderId: homeowners!.id,
      name: STATE_FORM_NAME,
      description: 'Maine disclosure printed with every homeowners policy in the state.',
      subject: 'policy',
      fileName: 'me-ho-d-01-26.pdf',
      edition: 'ME HO-D (01/26)',
      pdfBase64: pdf.toString('base64'),
      sha256: createHash('sha256').update(pdf).digest('hex'),
      pageCount,
      fields,
      mapping: STATE_FORM_MAPPING,
      status: 'published',
      createdBy: 'author@atrium.test',
      publishedBy: 'author@atrium.test',
      publishedAt: new Date('2025-12-15T12:00:00Z'),
    })
    .returning({ id: importedDocument.id });
  // Each line's dec page; homeowners then adds the Maine disclosure for Maine policies, on renewals too.
  await writeDeclarationsSettings(
    tx,
    {
      declarations: [
        { line: 'homeowners', template_id: templateIds[0]! },
        { line: 'personal_auto', template_id: templateIds[1]! },
      ],
      form_rules: [
        {
          line: 'homeowners',
          imported_document_id: form!.id,
          state: 'ME',
          suppress_printing: false,
          always_print_on_renewal: true,
          mortgagee_only: false,
        },
      ],
    },
    'author@atrium.test',
  );
}
