import { Paper, Text } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * Deliveries and failed attempts per day, stacked (recharts directly, as reports does: @mantine/charts
 * pins @mantine/core to an older exact version). The table below it carries the same figures for
 * screen readers and copying.
 */
export function DeliveriesChart({ days }: { days: { day: string; succeeded: number; failed: number }[] }) {
  const data = days.map((d) => ({
    ...d,
    label: new Date(`${d.day}T00:00:00Z`).toLocaleDateString(undefined, {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }),
  }));
  return (
    <Paper withBorder p="sm" radius="sm" component="figure" m={0} aria-label="Deliveries and failures per day">
      <Text component="figcaption" fw={600} size="sm" mb="xs">
        Deliveries and failures per day
      </Text>
      <div style={{ width: '100%', height: 240 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend />
            <Bar
              dataKey="succeeded"
              name="Delivered"
              stackId="d"
              fill="var(--mantine-color-green-6)"
              isAnimationActive={false}
            />
            <Bar
              dataKey="failed"
              name="Failed attempts"
              stackId="d"
              fill="var(--mantine-color-red-6)"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </Paper>
  );
}
