import { useId } from 'react'

export interface ChartSeries {
  key: string
  /** Already translated. */
  label: string
}

/**
 * A grouped bar chart in plain SVG (no chart library in the stack). It is one image to assistive technology, named
 * by its title and summarised in its description; the same figures are always shown as a table beside it (and in
 * the CSV export), which is the accessible form of the data. Each bar also carries its value as a tooltip.
 */
export function BarChart({
  title,
  summary,
  labels,
  series,
  values,
  format,
}: {
  title: string
  summary: string
  labels: string[]
  series: ChartSeries[]
  /** values[series][label] */
  values: number[][]
  format: (n: number) => string
}) {
  const id = useId()
  const max = Math.max(1, ...values.flat())
  const plot = { left: 56, top: 12, height: 180, bottom: 48 }
  const group = Math.max(18, Math.min(64, 560 / Math.max(labels.length, 1)))
  const bar = Math.max(3, (group - 6) / Math.max(series.length, 1))
  const width = plot.left + labels.length * group + 12
  const height = plot.top + plot.height + plot.bottom
  const y = (v: number) => plot.top + plot.height - (v / max) * plot.height
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max)
  // Long ranges label every few periods so the text stays readable.
  const every = Math.ceil(labels.length / 12)
  return (
    <figure className="chart">
      <svg
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
        style={{ maxHeight: 320 }}
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        {ticks.map((v, i) => (
          <g key={i} className="chart-grid">
            <line x1={plot.left} x2={width - 8} y1={y(v)} y2={y(v)} />
            <text x={plot.left - 6} y={y(v)} dy="0.32em" textAnchor="end">
              {format(v)}
            </text>
          </g>
        ))}
        {labels.map((label, li) => {
          const x0 = plot.left + li * group + 3
          return (
            <g key={label}>
              {series.map((s, si) => {
                const v = values[si]?.[li] ?? 0
                return (
                  <rect
                    key={s.key}
                    className={`chart-bar chart-color-${si % 6}`}
                    x={x0 + si * bar}
                    y={y(v)}
                    width={Math.max(1, bar - 1)}
                    height={Math.max(0, plot.top + plot.height - y(v))}
                  >
                    <title>{`${s.label} · ${label}: ${format(v)}`}</title>
                  </rect>
                )
              })}
              {li % every === 0 ? (
                <text
                  className="chart-label"
                  x={x0 + (group - 6) / 2}
                  y={plot.top + plot.height + 14}
                  textAnchor="end"
                  transform={`rotate(-35 ${x0 + (group - 6) / 2} ${plot.top + plot.height + 14})`}
                >
                  {label}
                </text>
              ) : null}
            </g>
          )
        })}
      </svg>
      {series.length > 1 ? (
        <figcaption>
          <ul className="chart-legend">
            {series.map((s, si) => (
              <li key={s.key}>
                <span className={`chart-swatch chart-color-${si % 6}`} aria-hidden="true" /> {s.label}
              </li>
            ))}
          </ul>
        </figcaption>
      ) : null}
    </figure>
  )
}
