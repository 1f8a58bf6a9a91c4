import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ApiError, type ProblemIssue } from '@atrium/sdk/server';

/**
 * Checks a plugin's `configuration` against the JSON Schema its record carries
 * (`configuration_schema`), on every POST and PATCH, with Ajv 8: the editor's Monaco check is a
 * convenience, this is the boundary. The schema's `$schema` picks the dialect (2020-12, 2019-09,
 * otherwise draft-07, what Monaco assumes). Unknown keywords are allowed (schemas written for editors
 * carry `markdownDescription` and the like); formats are checked (ajv-formats). A schema Ajv cannot
 * compile is itself a 400 on `configuration_schema`; each configuration error is a 400 issue whose
 * pointer is the offending value's path under `/data/attributes/configuration`.
 */
const POINTER = '/data/attributes';
const MAX_ISSUES = 20;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// `logger: false`: an unknown format is ignored (strict off), not reported on the server's console.
const options = { allErrors: true, strict: false, validateSchema: true, logger: false } as const;
const dialects = {
  draft7: addFormats(new Ajv(options)),
  '2019': addFormats(new Ajv2019(options) as unknown as Ajv),
  '2020': addFormats(new Ajv2020(options) as unknown as Ajv),
};

function dialectOf(schema: Record<string, unknown>): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return dialects['2020'];
  if (declared.includes('2019-09')) return dialects['2019'];
  return dialects.draft7;
}

/** Compiles the schema, or throws a 400 on `configuration_schema` saying why it is not one. */
export function compileConfigurationSchema(schema: Record<string, unknown>): ValidateFunction {
  const ajv = dialectOf(schema);
  // Compiled afresh each time: schemas change with the record, and an `$id` must not be remembered.
  try {
    if (!ajv.validateSchema(schema)) {
      throw new ApiError(400, 'The configuration schema is not a valid JSON Schema.', {
        issues: (ajv.errors ?? []).slice(0, MAX_ISSUES).map((e) => ({
          detail: `The configuration schema is not a valid JSON Schema: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}.`,
          source: { pointer: `${POINTER}/configuration_schema${e.instancePath}` },
          code: 'invalid_schema',
        })),
      });
    }
    const validate = ajv.compile(schema);
    if (typeof schema.$id === 'string') ajv.removeSchema(schema.$id);
    return validate;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (typeof schema.$id === 'string') ajv.removeSchema(schema.$id);
    throw new ApiError(400, `The configuration schema cannot be used: ${(error as Error).message}`, {
      source: { pointer: `${POINTER}/configuration_schema` },
      code: 'invalid_schema',
    });
  }
}

/** What one Ajv error says, for an administrator ("surcharge must be number"). */
function describe(error: ErrorObject): string {
  const at = error.instancePath ? error.instancePath.slice(1).split('/').join('.') : 'The configuration';
  if (error.keyword === 'required')
    return `The configuration needs ${String((error.params as { missingProperty: string }).missingProperty)}${error.instancePath ? ` in ${at}` : ''}.`;
  if (error.keyword === 'additionalProperties')
    return `${at === 'The configuration' ? 'The configuration' : at} may not have ${String((error.params as { additionalProperty: string }).additionalProperty)}.`;
  return `${at} ${error.message ?? 'is invalid'}.`;
}

/** Throws a 400 with one issue per error when the configuration breaks its record's schema. */
export function checkConfiguration(
  configuration: Record<string, unknown>,
  schema: Record<string, unknown> | null | undefined,
): void {
  if (!schema) return;
  const validate = compileConfigurationSchema(schema);
  const unusable = (why: string) =>
    new ApiError(400, `The configuration schema cannot be used: ${why}`, {
      source: { pointer: `${POINTER}/configuration_schema` },
      code: 'invalid_schema',
    });
  // An asynchronous schema answers a promise, not a verdict: nothing here would wait for it.
  if ((validate as { $async?: boolean }).$async) throw unusable('asynchronous schemas ($async) are not supported.');
  let valid: boolean;
  try {
    valid = validate(configuration) as boolean;
  } catch (error) {
    // A schema that refers to itself without end ({"$ref": "#"}) overflows the stack while checking.
    throw unusable(error instanceof RangeError ? 'it refers to itself without end.' : (error as Error).message);
  }
  if (valid) return;
  const issues: ProblemIssue[] = (validate.errors ?? []).slice(0, MAX_ISSUES).map((error) => {
    const missing =
      error.keyword === 'required' ? `/${(error.params as { missingProperty: string }).missingProperty}` : '';
    return {
      detail: describe(error),
      source: { pointer: `${POINTER}/configuration${error.instancePath}${missing}` },
      code: `schema_${error.keyword}`,
    };
  });
  throw new ApiError(400, 'The configuration does not match the plugin’s configuration schema.', { issues });
}
