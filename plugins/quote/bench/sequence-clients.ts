/* eslint-disable no-console -- the load generator answers on standard output. */
/**
 * P6's load generator, run in a child process (so that it does not share the server's event loop):
 * CLIENTS clients, each running the quote sequence again and again for SECONDS seconds — create a
 * homeowners quote → save the root risk's answers → rate → submit (Approved by the trigger: no open
 * issue) → bind — and timing each whole sequence. Prints one JSON line: sequences, seconds,
 * latencies (ms, sorted), failures (first few messages).
 */
const [base, token, clientsText, secondsText, expectPremium] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string | undefined,
];
const clients = Number(clientsText);
const seconds = Number(secondsText);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };

type Json = Record<string, any>;

/** Each step's latencies (ms), to show where a sequence's time goes. */
const steps: Record<string, number[]> = { create: [], answers: [], rate: [], submit: [], bind: [] };

async function call(step: string, method: string, path: string, body?: unknown): Promise<Json> {
  const t0 = performance.now();
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  steps[step]!.push(performance.now() - t0);
  return JSON.parse(text) as Json;
}

let counter = 0;
async function sequence(): Promise<void> {
  const n = ++counter;
  const quote = await call('create', 'POST', '/quote/', {
    product_name: 'homeowners',
    effective_date: '2026-03-01',
    named_insured: { name: `Bench Insured ${n}` },
    // The agent submits and binds per state (quoting permissions): TX is one of theirs.
    state: 'TX',
  });
  await call('answers', 'PUT', `/quote/risks/${quote.risk_quote.id}/`, {
    risk_state: {
      field_answers: { zip: '78701', construction: 'masonry', protection_class: 4, year_built: 2001, roof_year: 2015 },
    },
  });
  const rated = await call('rate', 'POST', `/quote/${quote.quote_number}/rate/`, {});
  if (expectPremium && rated.premium.term !== expectPremium) {
    throw new Error(`rated ${rated.premium.term}, expected the constant ${expectPremium}`);
  }
  const submitted = await call('submit', 'POST', `/quote/${quote.quote_number}/submit/`, {});
  if (submitted.status !== 'Approved') throw new Error(`submitted as ${submitted.status}`);
  const bound = await call('bind', 'POST', `/quote/${quote.quote_number}/bind_requested/`, {});
  if (!bound.policy?.policy_number) throw new Error('bound without a policy number');
}

const latencies: number[] = [];
const failures: string[] = [];
let failed = 0;
const started = performance.now();
const until = started + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        await sequence();
        latencies.push(performance.now() - t0);
      } catch (error) {
        failed++;
        if (failures.length < 5) failures.push(error instanceof Error ? error.message : String(error));
      }
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const stepMedians = Object.fromEntries(Object.entries(steps).map(([name, values]) => [name, median(values)]));
console.log(
  JSON.stringify({ sequences: latencies.length, seconds: elapsed, latencies, failed, failures, steps: stepMedians }),
);
