import { EmptyState, formatDate } from '@atrium/sdk';
import type { ComponentJson } from '../../shared/api-types.js';
import { ComponentWorkList } from './component-work-list.js';

/** My work › Uncommitted rule changes: what rules authors have saved and not yet committed. */
export default function UncommittedChangesWidget() {
  return (
    <ComponentWorkList<ComponentJson>
      list="uncommittedcomponents"
      latestFirst={(component) => component.date_modified}
      empty={
        <EmptyState
          title="Everything is committed"
          description="Rule components saved since the last commit show here."
        />
      }
      aside={(component) => `${component.modified_by} · ${formatDate(component.date_modified)}`}
    />
  );
}
