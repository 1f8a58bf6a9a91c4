import type { ProblemIssue } from './http-problem.js';

/**
 * Turns a request-validation failure (Fastify with zod schemas) into issues with a pointer per
 * field: body fields as JSON pointers (an unknown field points at itself), query, path and header
 * fields by name. The server's error handler uses it, and so can a plugin that answers validation
 * failures in a shape of its own (identity's InvalidParameterException), so pointers never differ.
 */
type ValidationContext = 'body' | 'querystring' | 'params' | 'headers';

interface ZodIssueLike {
  instancePath: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
}

export function validationIssues(error: unknown): ProblemIssue[] {
  const { validation, validationContext } = error as {
    validation?: ZodIssueLike[];
    validationContext?: ValidationContext;
  };
  const context = validationContext ?? 'body';
  const toSource = (pointer: string): ProblemIssue['source'] => {
    if (context === 'body') return { pointer: pointer === '/' ? '' : pointer };
    const name = pointer.split('/').filter(Boolean)[0] ?? '';
    return context === 'headers' ? { header: name } : { parameter: name };
  };
  const out: ProblemIssue[] = [];
  for (const issue of validation ?? []) {
    const base = issue.instancePath === '/' ? '' : issue.instancePath;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params?.keys)) {
      for (const key of issue.params.keys as string[]) {
        out.push({ detail: `Unknown field '${key}'.`, source: toSource(`${base}/${key}`), code: 'unrecognized_keys' });
      }
      continue;
    }
    out.push({ detail: issue.message, source: toSource(base || '/'), code: issue.keyword });
  }
  return out;
}
