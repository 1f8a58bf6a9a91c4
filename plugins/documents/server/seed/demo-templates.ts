/**
 * Demo templates (Typst). Each reads its data as `data` (the prelude defines it and sets the shipped
 * font); money arrives as decimal strings and is formatted by formatCurrency with integer arithmetic,
 * never through a float.
 */
export const HOMEOWNERS_DECLARATIONS = `#set page(paper: "us-letter", margin: 2cm)
#let p = data.policy

#align(center)[
  #text(size: 16pt, weight: "bold")[Homeowners Policy Declarations]
]

#grid(
  columns: (1fr, 1fr),
  gutter: 8pt,
  [*Policy number:* #p.number],
  [*Policy period:* #formatDate(p.term_start) to #formatDate(p.term_end)],
  [*Named insured:* #p.insured.name],
  [*Agency:* #data.agency.name],
  [*Residence premises:* #p.insured.address],
  [],
)

#v(12pt)
== Coverages

#table(
  columns: (auto, 1fr, auto, auto),
  align: (left, left, right, right),
  [*Cov.*], [*Coverage*], [*Limit*], [*Premium*],
  ..p.coverages.map(c => (c.code, c.name, formatCurrency(c.limit), formatCurrency(c.premium))).flatten(),
)

#v(8pt)
#align(right)[*Total annual premium: #formatCurrency(p.premium)* (#pluralize(p.coverages.len(), "coverage"))]

#v(16pt)
#text(size: 8pt)[This declarations page is part of your policy. Please read your policy carefully.]
`;

/** The personal auto dec page: the same policy data points, laid out for a motor policy. */
export const AUTO_DECLARATIONS = `#set page(paper: "us-letter", margin: 2cm)
#let p = data.policy

#align(center)[
  #text(size: 16pt, weight: "bold")[Personal Auto Policy Declarations]
]

#table(
  columns: (auto, 1fr),
  stroke: none,
  [*Policy number:*], [#p.number],
  [*Policy period:*], [#formatDate(p.term_start) to #formatDate(p.term_end), 12:01 a.m. standard time],
  [*Named insured:*], [#p.insured.name],
  [*Mailing address:*], [#p.insured.address],
  [*Agency:*], [#data.agency.name],
)

#v(12pt)
== Coverages and limits

#table(
  columns: (auto, 1fr, auto, auto),
  align: (left, left, right, right),
  [*No.*], [*Coverage*], [*Limit*], [*Premium*],
  ..p.coverages.map(c => (c.code, c.name, formatCurrency(c.limit), formatCurrency(c.premium))).flatten(),
)

#v(8pt)
#align(right)[*Total policy premium: #formatCurrency(p.premium)*]

#v(16pt)
#text(size: 8pt)[This declarations page, with the policy form and any endorsements, completes your auto policy.
Coverage applies only where a premium is shown.]
`;

export const CLAIM_ACKNOWLEDGEMENT = `#set page(paper: "us-letter", margin: 2.5cm)
#import "/components/signature-block.typ": signature-block
#let c = data.claim

#image("/assets/atrium-logo.svg", width: 3cm)

#c.claimant.name \\
#c.claimant.address

#v(12pt)
*Re: Claim #(c.number)* (policy #(c.policy_number)), loss of #formatDate(c.loss_date)

Dear #c.claimant.name,

We received your claim on #formatDate(c.reported_date) and have opened claim #c.number for the loss you
described: _#(c.description)_

#c.adjuster.name will handle your claim and will contact you shortly. You can reach your adjuster at
#c.adjuster.phone. Please quote your claim number in all correspondence.

#signature-block(c.adjuster.name, "Claims Department")
`;

/** The demo component: a closing and signature, used by the claim letter. */
export const SIGNATURE_BLOCK = `#let signature-block(name, department) = [
  Sincerely,

  #v(18pt)
  #name \\
  #department
]
`;

/** The demo asset: a plain logo (shapes only, so it needs no font). */
export const ATRIUM_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30" viewBox="0 0 120 30">
<rect width="120" height="30" rx="4" fill="#1c4e80"/>
<circle cx="15" cy="15" r="8" fill="#f2c14e"/>
<rect x="30" y="11" width="80" height="8" rx="2" fill="#ffffff"/>
</svg>
`;

/**
 * The demo quote document: what the agent e-mails the insured before binding — the quote's number,
 * line, dates and premium, then each risk's answers and coverages as the quote module reads them out
 * (labels and printable values). An unrated quote prints "Not rated yet" instead of a premium.
 */
export const QUOTE_SUMMARY = `#set page(paper: "us-letter", margin: 2cm)
#let q = data.quote

#align(center)[
  #text(size: 16pt, weight: "bold")[Quote #q.number]
  #linebreak()
  #q.line
]

#table(
  columns: (auto, 1fr),
  stroke: none,
  [*Prepared for:*], [#q.insured.name],
  [*Proposed period:*], [#formatDate(q.effective_date) to #formatDate(q.expiration_date)],
  [*State:*], [#if q.state == none [—] else [#q.state]],
  [*Status:*], [#q.status],
  [*Agency:*], [#data.agency.name],
)

#v(8pt)
#if q.premium == none [
  *Premium:* Not rated yet.
] else [
  *Estimated annual premium: #formatCurrency(q.premium)*
]

#for r in q.risks [
  == #r.label
  #if r.answers.len() > 0 {
    table(
      columns: (1fr, 1fr),
      [*Question*], [*Answer*],
      ..r.answers.map(a => (a.label, a.value)).flatten(),
    )
  }
  #if r.coverages.len() > 0 {
    table(
      columns: (1fr, auto, auto),
      align: (left, right, right),
      [*Coverage*], [*Limit*], [*Deductible*],
      ..r.coverages.map(c => (c.name, formatCurrency(c.limit), formatCurrency(c.deductible))).flatten(),
    )
  }
]

#v(16pt)
#text(size: 8pt)[This is a quote, not a policy: no coverage is bound until the quote is accepted and the policy issued.
Premiums may change if the information above changes.]
`;
