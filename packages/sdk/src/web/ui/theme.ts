import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * Atrium's theme (docs/ui.md). The colour scales are chosen so that every pairing the components
 * use passes WCAG AA (4.5:1 for text): filled components use shade 7 (white text on it is ≥ 5:1 for
 * every colour), light components put shade 9 text on shade 1, and secondary ("dimmed") text is
 * grey 6 (6:1 on white). Type and spacing are a step denser than Mantine's defaults: these are
 * data-heavy screens read for hours.
 */

// Scales run from 0 (lightest, backgrounds) to 9 (darkest, text on light backgrounds).
const atrium: MantineColorsTuple = [
  '#eef2ff',
  '#e0e7ff',
  '#c7d2fe',
  '#a5b4fc',
  '#818cf8',
  '#6366f1',
  '#4f46e5',
  '#4338ca',
  '#3730a3',
  '#312e81',
];
const gray: MantineColorsTuple = [
  '#f8f9fb',
  '#f1f3f6',
  '#e4e7ec',
  '#d0d5dd',
  '#98a2b3',
  '#6b7280',
  '#525a66',
  '#3b4350',
  '#1f2937',
  '#111827',
];
const red: MantineColorsTuple = [
  '#fef2f2',
  '#fee2e2',
  '#fecaca',
  '#fca5a5',
  '#f87171',
  '#ef4444',
  '#dc2626',
  '#b91c1c',
  '#991b1b',
  '#7f1d1d',
];
const green: MantineColorsTuple = [
  '#f0fdf4',
  '#dcfce7',
  '#bbf7d0',
  '#86efac',
  '#4ade80',
  '#22c55e',
  '#16a34a',
  '#15803d',
  '#166534',
  '#14532d',
];
const blue: MantineColorsTuple = [
  '#eff6ff',
  '#dbeafe',
  '#bfdbfe',
  '#93c5fd',
  '#60a5fa',
  '#3b82f6',
  '#2563eb',
  '#1d4ed8',
  '#1e40af',
  '#1e3a8a',
];
const orange: MantineColorsTuple = [
  '#fff7ed',
  '#ffedd5',
  '#fed7aa',
  '#fdba74',
  '#fb923c',
  '#f97316',
  '#ea580c',
  '#c2410c',
  '#9a3412',
  '#7c2d12',
];
const yellow: MantineColorsTuple = [
  '#fefce8',
  '#fef9c3',
  '#fef08a',
  '#fde047',
  '#facc15',
  '#eab308',
  '#ca8a04',
  '#a16207',
  '#854d0e',
  '#713f12',
];
const teal: MantineColorsTuple = [
  '#f0fdfa',
  '#ccfbf1',
  '#99f6e4',
  '#5eead4',
  '#2dd4bf',
  '#14b8a6',
  '#0d9488',
  '#0f766e',
  '#115e59',
  '#134e4a',
];
const violet: MantineColorsTuple = [
  '#f5f3ff',
  '#ede9fe',
  '#ddd6fe',
  '#c4b5fd',
  '#a78bfa',
  '#8b5cf6',
  '#7c3aed',
  '#6d28d9',
  '#5b21b6',
  '#4c1d95',
];
const cyan: MantineColorsTuple = [
  '#ecfeff',
  '#cffafe',
  '#a5f3fc',
  '#67e8f9',
  '#22d3ee',
  '#06b6d4',
  '#0891b2',
  '#0e7490',
  '#155e75',
  '#164e63',
];
const grape: MantineColorsTuple = [
  '#fdf4ff',
  '#fae8ff',
  '#f5d0fe',
  '#f0abfc',
  '#e879f9',
  '#d946ef',
  '#c026d3',
  '#a21caf',
  '#86198f',
  '#701a75',
];

export const atriumTheme = createTheme({
  primaryColor: 'atrium',
  primaryShade: { light: 7, dark: 7 },
  colors: { atrium, gray, red, green, blue, orange, yellow, teal, violet, cyan, grape, indigo: atrium },
  // With the scales above, shade 7 of every colour takes white text; yellow and lime below it get black.
  autoContrast: true,
  luminanceThreshold: 0.3,
  white: '#ffffff',
  black: '#111827',
  defaultRadius: 'sm',
  // Modals, menus and collapses open without animating for whoever asks their system for less
  // motion (WCAG 2.3.3); the e2e browser asks too, so it waits for no transition to settle.
  respectReducedMotion: true,
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI Variable Text", "Segoe UI", system-ui, Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
  fontSizes: { xs: '12px', sm: '13px', md: '14px', lg: '16px', xl: '18px' },
  lineHeights: { xs: '1.4', sm: '1.45', md: '1.5', lg: '1.5', xl: '1.45' },
  spacing: { xs: '6px', sm: '10px', md: '14px', lg: '20px', xl: '28px' },
  headings: {
    fontWeight: '650',
    sizes: {
      h1: { fontSize: '22px', lineHeight: '1.3' },
      h2: { fontSize: '18px', lineHeight: '1.35' },
      h3: { fontSize: '16px', lineHeight: '1.4' },
      h4: { fontSize: '14px', lineHeight: '1.45' },
      h5: { fontSize: '13px', lineHeight: '1.45' },
      h6: { fontSize: '12px', lineHeight: '1.45' },
    },
  },
  components: {
    Badge: { defaultProps: { radius: 'sm' }, styles: { root: { textTransform: 'none', fontWeight: 600 } } },
    Table: { defaultProps: { verticalSpacing: 6, horizontalSpacing: 'sm', fz: 'sm' } },
    Tooltip: { defaultProps: { openDelay: 300, withArrow: true } },
  },
});

/** Semantic text colours at AA: secondary text, errors and links (Mantine's defaults are lighter). */
export const atriumCssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-6)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-5)',
    '--mantine-color-error': 'var(--mantine-color-red-7)',
    '--mantine-color-anchor': 'var(--mantine-color-atrium-7)',
    '--mantine-color-default-border': 'var(--mantine-color-gray-3)',
  },
  dark: {},
});
