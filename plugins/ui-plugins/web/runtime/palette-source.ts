import type { ContributedResult, PaletteContribution, PaletteSourceContext } from '@atrium/sdk';
import type { PaletteCommand } from '../../shared/plugin-schemas.js';
import { routeLink } from './host-actions.js';
import { hasFailed, paletteFrame, type PalettePlugin } from './palette-frame.js';

/**
 * The enabled plugins' palette entries (docs/third-party-plugins.md "In the palette"). Commands come
 * from the records (`GET /integrations/plugins/enabled/palette`), so opening the palette runs no
 * plugin code; a plugin's page is loaded (palette-frame.ts) only when the user searches and the
 * record says it searches, or runs one of its event commands. A plugin that failed contributes
 * nothing; one whose route is unknown here loses that command.
 */
interface PaletteRecord extends PalettePlugin {
  commands: PaletteCommand[];
  search: boolean;
}

export async function loadPaletteContributions(context: PaletteSourceContext): Promise<PaletteContribution[]> {
  const { data } = await context.api.get<{ data: PaletteRecord[] }>('/integrations/plugins/enabled/palette', {
    signal: context.signal,
  });
  const deps = { services: context.services, routeByName: context.routeByName };
  return data
    .filter((record) => !hasFailed(record.id))
    .map((record): PaletteContribution => {
      const navigateTo = (route: NonNullable<PaletteCommand['route']>) => {
        const link = routeLink(context.routeByName, route.name, route.params, route.query);
        return link.ok ? () => context.services.navigate(link.to) : null;
      };
      const commands = record.commands.flatMap((command) => {
        const run = command.route ? navigateTo(command.route) : () => paletteFrame(record, deps).command(command.id);
        if (!run) return [];
        return [
          {
            id: command.id,
            title: command.title,
            ...(command.shortcut ? { shortcut: command.shortcut } : {}),
            ...(command.keywords ? { keywords: command.keywords } : {}),
            run,
          },
        ];
      });
      const contribution: PaletteContribution = { id: record.id, heading: record.name, commands };
      if (record.search)
        contribution.search = async ({ query, signal }) => {
          const items = await paletteFrame(record, deps).search(query, signal);
          return (items ?? []).flatMap((item): ContributedResult[] => {
            const run = item.route ? navigateTo(item.route) : () => paletteFrame(record, deps).command(item.event!);
            if (!run) return [];
            return [{ id: item.id, title: item.title, ...(item.subtitle ? { subtitle: item.subtitle } : {}), run }];
          });
        };
      return contribution;
    });
}
