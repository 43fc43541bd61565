'use client';
import type { ChartsData } from '@/db/queries/charts';
import { chartSpecs } from '@/lib/report/chart-model';
import { ChartFigure } from '@/components/charts/chart-figure';
import { SpecChart } from '@/components/charts/spec-chart';

/** The six audit charts; numbers are computed on the server (db/queries/charts.ts) and arrive as props. */
export function AuditCharts({ data }: { data: ChartsData }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {chartSpecs(data).map((spec) => (
        <ChartFigure key={spec.id} spec={spec}>
          <SpecChart spec={spec} />
        </ChartFigure>
      ))}
    </div>
  );
}
