import type { NavIcon as NavIconType } from '@atrium/sdk';
import IconApps from '@tabler/icons-react/icons/IconApps';

/**
 * A navigation entry's or panel's icon: the component the plugin declared (a Tabler icon, imported
 * one by one so only the icons in use are bundled), or a generic module icon when it declared none.
 */
export function NavIcon({ icon, size = 18 }: { icon: NavIconType | undefined; size?: number }) {
  if (typeof icon === 'string') {
    return (
      <span aria-hidden className="atrium-nav-glyph">
        {icon}
      </span>
    );
  }
  const Icon = icon ?? IconApps;
  return <Icon size={size} stroke={1.75} aria-hidden />;
}
