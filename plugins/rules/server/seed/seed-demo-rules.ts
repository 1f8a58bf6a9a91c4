import { eq } from 'drizzle-orm';
import type { SeedContext } from '@atrium/sdk/server';
import { bundleOf } from '../build.js';
import { componentsAt, diffSnapshots, sha256, snapshotHash, snapshotOf, treeOf } from '../store.js';
import { commit, component, componentVersion, deployment, effectiveDate, project, rulesPackage } from '../tables.js';
import { DEMO_PROJECTS } from './demo-rules.js';

/**
 * Demo rules: a project per demo line, committed and deployed on a published effective date
 * 2026-01-01 (what quotes run), plus a draft 2026-07-01 copy for authors to change.
 */
export async function seedDemoRules({ tx }: SeedContext): Promise<void> {
  for (const spec of DEMO_PROJECTS) {
    const [p] = await tx
      .insert(project)
      .values({ name: spec.name, label: spec.label, product: spec.product, description: spec.description })
      .returning({ id: project.id });
    const [pkg] = await tx
      .insert(rulesPackage)
      .values({ projectId: p!.id, name: spec.name })
      .returning({ id: rulesPackage.id });
    const [published] = await tx
      .insert(effectiveDate)
      .values({
        projectId: p!.id,
        name: 'January 2026',
        effectiveDate: '2026-01-01',
        description: 'In force for quotes from 1 January 2026.',
      })
      .returning({ id: effectiveDate.id });
    for (const c of spec.components) {
      const [row] = await tx
        .insert(component)
        .values({
          packageId: pkg!.id,
          name: c.name,
          label: c.label,
          folder: c.folder,
          componentType: c.type,
          tags: c.tags ?? [],
        })
        .returning({ id: component.id });
      await tx.insert(componentVersion).values({
        componentId: row!.id,
        effectiveDateId: published!.id,
        body: c.body,
        tree: treeOf(c.type, c.body),
        updatedBy: 'system',
      });
    }
    const components = await componentsAt(tx, p!.id, published!.id);
    const snapshot = snapshotOf(components);
    const [committed] = await tx
      .insert(commit)
      .values({
        projectId: p!.id,
        effectiveDateId: published!.id,
        hash: snapshotHash(snapshot),
        message: 'Demo rules',
        snapshot,
        diff: diffSnapshots([], snapshot),
        createdBy: 'system',
      })
      .returning({ id: commit.id });
    for (const c of components) {
      await tx.update(componentVersion).set({ committedHash: c.hash }).where(eq(componentVersion.id, c.versionId));
    }
    const bundle = bundleOf(snapshot);
    await tx.insert(deployment).values({
      projectId: p!.id,
      effectiveDateId: published!.id,
      commitId: committed!.id,
      bundle,
      hash: sha256(JSON.stringify(bundle)),
      createdBy: 'system',
    });
    await tx.update(effectiveDate).set({ status: 'published' }).where(eq(effectiveDate.id, published!.id));
    const [draft] = await tx
      .insert(effectiveDate)
      .values({
        projectId: p!.id,
        name: 'July 2026',
        effectiveDate: '2026-07-01',
        description: 'Draft changes for July.',
      })
      .returning({ id: effectiveDate.id });
    await tx.insert(componentVersion).values(
      components.map((c) => ({
        componentId: c.id,
        effectiveDateId: draft!.id,
        body: c.body,
        tree: c.tree,
        state: c.state,
        // The copy is what was committed on the published date.
        committedHash: c.hash,
        updatedBy: 'system',
      })),
    );
  }
}
