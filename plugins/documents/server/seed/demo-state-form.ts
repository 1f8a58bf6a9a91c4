import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { FormMapping } from '../../shared/forms.js';

/**
 * The demo's imported state form: a one-page Maine homeowners disclosure with an AcroForm of every
 * kind of field, made with pdf-lib at seed time (no binary in the repository) with fixed dates, so
 * every seed writes the same bytes.
 */
export const STATE_FORM_NAME = 'Maine homeowners disclosure (ME HO-D 01 26)';

export async function createDemoStateForm(): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const day = new Date('2026-01-01T00:00:00Z');
  pdf.setCreationDate(day);
  pdf.setModificationDate(day);
  pdf.setTitle('Maine Homeowners Disclosure');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  const form = pdf.getForm();
  page.drawText('State of Maine — Homeowners Policy Disclosure', { x: 56, y: 730, size: 15, font: bold });
  page.drawText('Form ME HO-D 01 26. This notice is part of your homeowners policy.', {
    x: 56,
    y: 710,
    size: 9,
    font,
    color: rgb(0.3, 0.3, 0.3),
  });
  const label = (text: string, y: number) => page.drawText(text, { x: 56, y: y + 6, size: 10, font });
  const text = (name: string, y: number, required: boolean) => {
    const field = form.createTextField(name);
    field.addToPage(page, { x: 220, y, width: 320, height: 20, font });
    if (required) field.enableRequired();
  };
  label('Policy number', 660);
  text('policy_number', 660, true);
  label('Named insured', 630);
  text('insured_name', 630, true);
  label('Residence premises', 600);
  text('premises', 600, true);
  label('Policy period begins', 570);
  text('effective_date', 570, true);
  label('Annual premium ($)', 540);
  text('premium', 540, false);
  label('Producer signature', 510);
  text('producer_signature', 510, false);

  label('Payment plan', 470);
  const plan = form.createRadioGroup('payment_plan');
  ['Annual', 'Semiannual', 'Quarterly'].forEach((option, i) => {
    plan.addOptionToPage(option, page, { x: 220 + i * 110, y: 470, width: 14, height: 14 });
    page.drawText(option, { x: 240 + i * 110, y: 473, size: 10, font });
  });
  plan.enableRequired();

  label('County', 430);
  const county = form.createDropdown('county');
  county.addOptions(['Androscoggin', 'Cumberland', 'Kennebec', 'Penobscot', 'York']);
  county.addToPage(page, { x: 220, y: 430, width: 160, height: 20, font });

  const ack = form.createCheckBox('fraud_notice_acknowledged');
  ack.addToPage(page, { x: 56, y: 390, width: 14, height: 14 });
  page.drawText('The insured received the Maine fraud warning notice.', { x: 78, y: 393, size: 10, font });
  page.drawText(
    'It is a crime to knowingly provide false, incomplete or misleading information to an insurance company.',
    { x: 56, y: 350, size: 8, font, color: rgb(0.3, 0.3, 0.3) },
  );
  return Buffer.from(await pdf.save());
}

/** The demo form's mapping: data points, constants for the plan and the notice, the signature ignored. */
export const STATE_FORM_MAPPING: FormMapping = {
  policy_number: { source: 'data_point', path: 'policy.number' },
  insured_name: { source: 'data_point', path: 'policy.insured.name' },
  premises: { source: 'data_point', path: 'policy.insured.address' },
  effective_date: { source: 'data_point', path: 'policy.term_start' },
  premium: { source: 'data_point', path: 'policy.premium' },
  producer_signature: { source: 'ignored' },
  payment_plan: { source: 'constant', value: 'Annual' },
  county: { source: 'constant', value: 'Cumberland' },
  fraud_notice_acknowledged: { source: 'constant', value: 'checked' },
};
