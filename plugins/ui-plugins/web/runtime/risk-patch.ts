import { applyPatch, JsonPatchError } from 'fast-json-patch';
import type { RiskDocument } from '@atrium/sdk';
import { jsonPatch } from './bridge-protocol.js';

export type RiskPatchResult = { ok: true; changed: Record<string, unknown> } | { ok: false; error: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isAnswer = (v: unknown) =>
  v === null ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' && v.length <= 10_000);

/** The risk's answers with each of its fields present, unanswered ones as null. */
export function withEveryField(risk: RiskDocument, fields: readonly string[]): Record<string, unknown> {
  return { ...Object.fromEntries(fields.map((f) => [f, null])), ...risk.field_answers };
}

/**
 * Applies a plugin's `update-risk` JSON Patch (RFC 6902) to a copy of the risk and returns the
 * answers it changed, or why it was refused. The patch may only touch `/field_answers/<field>` of the
 * risk type's own fields, with plain values; removing an answer clears it. The answers then go
 * through the screen's normal save, where the server checks permission and validates them.
 */
export function applyRiskPatch(risk: RiskDocument, patch: unknown, fields: readonly string[]): RiskPatchResult {
  const ops = jsonPatch.safeParse(patch);
  if (!ops.success) return { ok: false, error: 'The patch is not a JSON Patch.' };
  // Every field is present (null when unanswered), so `replace` works on any of them.
  const before = { field_answers: withEveryField(risk, fields) };
  let after: unknown;
  try {
    after = applyPatch(structuredClone(before), ops.data as never, true, false, true).newDocument;
  } catch (error) {
    const detail = error instanceof JsonPatchError ? error.name : 'invalid operation';
    return { ok: false, error: `The patch does not apply (${detail}).` };
  }
  if (
    !isPlainObject(after) ||
    Object.keys(after).some((k) => k !== 'field_answers') ||
    !isPlainObject(after.field_answers)
  )
    return { ok: false, error: 'A plugin may only change the risk’s answers.' };
  const answers = after.field_answers;
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before.field_answers), ...Object.keys(answers)])) {
    const next = Object.prototype.hasOwnProperty.call(answers, key) ? answers[key] : null;
    const prev = before.field_answers[key] ?? null;
    if (JSON.stringify(next) === JSON.stringify(prev)) continue;
    if (!fields.includes(key)) return { ok: false, error: `This risk has no field ${key.slice(0, 60)}.` };
    if (!isAnswer(next)) return { ok: false, error: `The answer for ${key} is not a plain value.` };
    changed[key] = next;
  }
  return { ok: true, changed };
}

/**
 * A `create-and-update-risk` entry: the patch applied to a new, empty risk of a child type (every
 * field present as null), with the same rules as `update-risk`. Answers the new risk's answers.
 */
export function newRiskAnswers(
  riskType: string,
  patch: unknown,
  childTypes: readonly { name: string; label: string; fields: readonly string[] }[],
): RiskPatchResult {
  const type = childTypes.find((t) => t.name === riskType);
  if (!type)
    return {
      ok: false,
      error: childTypes.length
        ? `A ${riskType.slice(0, 60)} risk cannot go under this risk (it takes ${childTypes.map((t) => t.label).join(', ')}).`
        : `No risk goes under this risk.`,
    };
  return applyRiskPatch({ field_answers: {} }, patch, type.fields);
}
