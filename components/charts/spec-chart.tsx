'use client';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChartSpec } from '@/lib/report/chart-model';

const tick = { fontSize: 11, fill: 'currentColor' };
const tooltip = { contentStyle: { fontSize: 12, color: '#0f172a' }, labelStyle: { color: '#0f172a', fontWeight: 600 } };

/** Rows keyed by series for recharts: [{ label, create: 3, promote: 1 }, …]. */
function rows(spec: ChartSpec): Record<string, string | number>[] {
  return spec.x.map((label, i) => {
    const row: Record<string, string | number> = { label };
    for (const [si, s] of spec.series.entries()) row[s.key] = spec.values[si]?.[i] ?? 0;
    return row;
  });
}

/** Renders one ChartSpec with recharts; hover shows the exact values. */
export function SpecChart({ spec }: { spec: ChartSpec }) {
  const data = rows(spec);
  const refs = (spec.refs ?? []).map((r) => (
    <ReferenceLine
      key={r.at}
      x={r.at}
      position="start"
      stroke="currentColor"
      strokeDasharray="4 3"
      strokeWidth={1.5}
      label={{ value: r.label, position: 'top', fontSize: 11, fill: 'currentColor' }}
    />
  ));
  if (spec.kind === 'lines') {
    return (
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeOpacity={0.25} vertical={false} />
          <XAxis dataKey="label" tick={tick} minTickGap={16} />
          <YAxis tick={tick} allowDecimals={false} width={40} />
          <Tooltip {...tooltip} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {spec.series.map((s) => (
            <Line
              key={s.key}
              type="linear"
              dataKey={s.key}
              name={s.label}
              stroke={s.color}
              strokeWidth={2}
              dot={{ r: 2 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    );
  }
  if (spec.kind === 'hbars') {
    return (
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 0, left: 8 }}>
          <CartesianGrid strokeOpacity={0.25} horizontal={false} />
          <XAxis type="number" tick={tick} allowDecimals={false} />
          <YAxis type="category" dataKey="label" tick={tick} width={210} interval={0} />
          <Tooltip {...tooltip} />
          <Bar dataKey="findings" name="Findings" isAnimationActive={false}>
            {data.map((_, i) => (
              <Cell key={i} fill={spec.barColors?.[i] ?? '#475569'} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    );
  }
  return (
    <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
      <BarChart data={data} margin={{ top: 18, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid strokeOpacity={0.25} vertical={false} />
        <XAxis
          dataKey="label"
          tick={tick}
          {...(spec.kind === 'bars' ? { interval: 0, angle: -35, textAnchor: 'end', height: 44 } : { minTickGap: 8 })}
        />
        <YAxis tick={tick} allowDecimals={false} width={40} />
        <Tooltip {...tooltip} />
        {spec.kind === 'stacked' ? <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} /> : null}
        {spec.series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stackId={spec.kind === 'stacked' ? 'a' : undefined}
            fill={s.color}
            isAnimationActive={false}
          >
            {spec.barColors ? data.map((_, i) => <Cell key={i} fill={spec.barColors![i]} />) : null}
          </Bar>
        ))}
        {refs}
      </BarChart>
    </ResponsiveContainer>
  );
}
