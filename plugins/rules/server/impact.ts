import { asc, eq } from 'drizzle-orm';
import { checkComponent, ontologyFromDefinition, type Ontology, type TemplateComponent } from '@atrium/rating/rules';
import { provideService, type Queryable } from '@atrium/sdk/server';
import { LINES_PUBLISH_IMPACT, type PublishImpactItem } from '@atrium/plugin-lines/publish-impact';
import { BRL_TYPES, componentsAt, type LoadedComponent } from './store.js';
import { effectiveDate, project } from './tables.js';

/** One rule that references a field, item or risk type the ontology no longer has (or has with another type). */
export interface ImpactEntry {
  project: string;
  effectiveDate: string;
  component: string;
  message: string;
}

/**
 * The problems `components` have against `ontology`: only type-check problems, since syntax is the
 * author's business and does not change when lines does. `committedOnly` keeps what was committed
 * (what a publish would break); the sync view checks the working copy too.
 */
export function impactOf(components: LoadedComponent[], ontology: Ontology, committedOnly: boolean) {
  const brl = components.filter(
    (c) => BRL_TYPES.includes(c.componentType) && c.tree && (!committedOnly || c.committedHash !== null),
  );
  const templates = new Map<string, TemplateComponent>();
  for (const c of brl) if (c.tree!.kind === 'template') templates.set(c.tree!.name, c.tree as TemplateComponent);
  return brl.flatMap((c) =>
    checkComponent(c.tree!, ontology, templates).map((p) => ({ component: c.fullName, message: p.message })),
  );
}

/** Every committed rule of every project for `productName` that `ontology` would break. */
export async function committedImpact(tx: Queryable, productName: string, ontology: Ontology): Promise<ImpactEntry[]> {
  const rows = await tx
    .select({ projectId: project.id, label: project.label, id: effectiveDate.id, date: effectiveDate.effectiveDate })
    .from(effectiveDate)
    .innerJoin(project, eq(project.id, effectiveDate.projectId))
    .where(eq(project.product, productName))
    .orderBy(asc(project.label), asc(effectiveDate.effectiveDate));
  const entries: ImpactEntry[] = [];
  for (const row of rows) {
    const components = await componentsAt(tx, row.projectId, row.id);
    for (const p of impactOf(components, ontology, true))
      entries.push({ project: row.label, effectiveDate: row.date, ...p });
  }
  return entries;
}

/** Lines' before-publish extension point: the committed rules the version about to be published breaks. */
export const rulesPublishImpactService = provideService(LINES_PUBLISH_IMPACT, () => ({
  async check(tx, version): Promise<PublishImpactItem[]> {
    const entries = await committedImpact(tx, version.productName, ontologyFromDefinition(version.definition));
    return entries.map((e) => ({
      source: `Rules project ${e.project} (${e.effectiveDate})`,
      subject: e.component,
      message: e.message,
    }));
  },
}));
