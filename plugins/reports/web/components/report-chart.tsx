import { Paper, Text } from '@mantine/core';
import { formatDecimal } from '@atrium/sdk';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportChart as Chart } from '../../shared/report-definitions.js';

/**
 * The result's bar chart (recharts; this file loads only with the report page). recharts is used
 * directly: @mantine/charts pins @mantine/core to its own exact version, older than the app's
 * (docs/reports.md, issue 23 item 9). Colours come from the Mantine theme's variables.
 */
const COLORS = ['var(--mantine-color-blue-6)', 'var(--mantine-color-teal-6)', 'var(--mantine-color-orange-6)'];

export function ReportChart({ chart }: { chart: Chart }) {
  if (chart.data.length === 0) return null;
  return (
    <Paper withBorder p="sm" radius="sm" component="figure" m={0} aria-label={chart.title}>
      <Text component="figcaption" fw={600} size="sm" mb="xs">
        {chart.title}
      </Text>
      <div style={{ width: '100%', height: 260 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={chart.data} margin={{ top: 4, right: 8, bottom: 4, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey={chart.categoryKey} tick={{ fontSize: 12 }} />
            <YAxis tick={{ fontSize: 12 }} tickFormatter={(value: number) => formatDecimal(value, { places: 0 })} />
            <Tooltip formatter={(value) => formatDecimal(Number(value), { places: 2 })} />
            {chart.series.length > 1 ? <Legend /> : null}
            {chart.series.map((series, index) => (
              <Bar
                key={series.key}
                dataKey={series.key}
                name={series.label}
                fill={COLORS[index % COLORS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </Paper>
  );
}
