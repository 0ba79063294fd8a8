import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import {
  OVERLAY_MODES,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  slideHasContent,
  type Slide,
  type SlideDeck,
  type SlideObject,
  type SlideObjectKind,
} from '#shared/schemas/lesson/slide'
import { SlideView } from './slide-view'

const newId = () => Math.random().toString(36).slice(2, 12)

/** A new slide: white, with an empty title box (removed on save while it stays empty, seed 001 §5). */
export function newSlide(): Slide {
  return { id: newId(), background: '#ffffff', objects: [newObject('text')], narration: '', overlay: 'none' }
}

/** A new object of a kind, in the middle of the page, with every field the slide document requires. */
export function newObject(kind: SlideObjectKind): SlideObject {
  const base = { id: newId(), name: kind, x: 300, y: 300, width: 2900, height: 500, rotation: 0, opacity: 1, hidden: false, locked: false }
  switch (kind) {
    case 'text':
      return { ...base, kind, html: '', font_size: 160, color: '#111111', align: 'left' }
    case 'image':
      return { ...base, kind, src: '', alt: '', width: 1200, height: 900 }
    case 'shape':
      return { ...base, kind, shape: 'rect', fill: '#e0e7ff', stroke: '#3730a3', stroke_width: 8, width: 1200, height: 700 }
    case 'formula':
      return { ...base, kind, latex: '\\frac{a}{b}', color: '#111111', width: 1200, height: 400 }
    case 'persona':
      return { ...base, kind, x: PAGE_WIDTH - 900, y: PAGE_HEIGHT - 1000, width: 800, height: 900 }
  }
}

const move = <T,>(xs: T[], from: number, to: number) => {
  if (to < 0 || to >= xs.length) return xs
  const next = [...xs]
  const [x] = next.splice(from, 1)
  next.splice(to, 0, x)
  return next
}

function Num({ label, value, onChange, min, max }: { label: string; value: number; onChange: (n: number) => void; min?: number; max?: number }) {
  const id = useId()
  return (
    <div className="field slide-num">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" type="number" value={value} min={min} max={max} onChange={(e) => onChange(Number(e.currentTarget.value))} />
    </div>
  )
}

function ObjectForm({ o, set }: { o: SlideObject; set: (patch: Partial<SlideObject>) => void }) {
  const { t } = useTranslation()
  const id = useId()
  const f = (key: string) => t(`lesson.slides.field.${key}`)
  return (
    <div className="slide-object-form">
      <div className="field-row">
        <Num label={f('x')} value={o.x} onChange={(x) => set({ x })} />
        <Num label={f('y')} value={o.y} onChange={(y) => set({ y })} />
        <Num label={f('width')} value={o.width} min={1} onChange={(width) => set({ width })} />
        <Num label={f('height')} value={o.height} min={1} onChange={(height) => set({ height })} />
        <Num label={f('rotation')} value={o.rotation} min={-360} max={360} onChange={(rotation) => set({ rotation })} />
      </div>
      {o.kind === 'text' ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-html`}>{f('text')}</label>
            <textarea
              id={`${id}-html`}
              className="input"
              rows={3}
              value={o.html.replace(/<\/p>\s*<p>/g, '\n').replace(/<[^>]*>/g, '')}
              onChange={(e) =>
                set({
                  html: e.currentTarget.value
                    .split('\n')
                    .map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
                    .join(''),
                } as Partial<SlideObject>)
              }
            />
          </div>
          <div className="field-row">
            <Num label={f('font_size')} value={o.font_size} min={8} max={600} onChange={(font_size) => set({ font_size } as Partial<SlideObject>)} />
            <div className="field">
              <label htmlFor={`${id}-color`}>{f('color')}</label>
              <input
                id={`${id}-color`}
                className="input"
                type="color"
                value={o.color}
                onChange={(e) => set({ color: e.currentTarget.value } as Partial<SlideObject>)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-align`}>{f('align')}</label>
              <select
                id={`${id}-align`}
                className="input"
                value={o.align}
                onChange={(e) => set({ align: e.currentTarget.value as 'left' } as Partial<SlideObject>)}
              >
                {(['left', 'center', 'right'] as const).map((a) => (
                  <option key={a} value={a}>
                    {t(`lesson.slides.align.${a}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </>
      ) : null}
      {o.kind === 'formula' ? (
        <div className="field">
          <label htmlFor={`${id}-latex`}>{f('latex')}</label>
          <input
            id={`${id}-latex`}
            className="input"
            value={o.latex}
            onChange={(e) => set({ latex: e.currentTarget.value } as Partial<SlideObject>)}
            spellCheck={false}
          />
        </div>
      ) : null}
      {o.kind === 'image' ? (
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-src`}>{f('src')}</label>
            <input id={`${id}-src`} className="input" type="url" value={o.src} onChange={(e) => set({ src: e.currentTarget.value } as Partial<SlideObject>)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-alt`}>{f('alt')}</label>
            <input id={`${id}-alt`} className="input" value={o.alt} onChange={(e) => set({ alt: e.currentTarget.value } as Partial<SlideObject>)} />
          </div>
        </div>
      ) : null}
      {o.kind === 'shape' ? (
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-shape`}>{f('shape')}</label>
            <select
              id={`${id}-shape`}
              className="input"
              value={o.shape}
              onChange={(e) => set({ shape: e.currentTarget.value as 'rect' } as Partial<SlideObject>)}
            >
              {(['rect', 'ellipse', 'line', 'arrow'] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`lesson.slides.shape.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-fill`}>{f('fill')}</label>
            <input
              id={`${id}-fill`}
              className="input"
              type="color"
              value={o.fill || '#ffffff'}
              onChange={(e) => set({ fill: e.currentTarget.value } as Partial<SlideObject>)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-stroke`}>{f('stroke')}</label>
            <input
              id={`${id}-stroke`}
              className="input"
              type="color"
              value={o.stroke || '#000000'}
              onChange={(e) => set({ stroke: e.currentTarget.value } as Partial<SlideObject>)}
            />
          </div>
        </div>
      ) : null}
      <label className="switch">
        <input type="checkbox" checked={o.hidden} onChange={(e) => set({ hidden: e.currentTarget.checked })} /> {f('hidden')}
      </label>
    </div>
  )
}

/**
 * The lesson's slides panel (issue 18): the deck as thumbnails with add, duplicate, reorder and delete, and for the
 * chosen slide its background, persona overlay, narration and a plain form per object (the layers, back to front).
 * The canvas slide editor (app/components/slide-editor) takes the same props and is mounted here at merge.
 */
export function SlidesPanel({ value, onChange }: { value: SlideDeck; onChange: (deck: SlideDeck) => void }) {
  const { t } = useTranslation()
  const [current, setCurrent] = useState(0)
  const [announce, setAnnounce] = useState('')
  const index = Math.min(current, Math.max(0, value.length - 1))
  const slide = value[index] as Slide | undefined
  const id = useId()
  const setSlide = (patch: Partial<Slide>) => onChange(value.map((s, i) => (i === index ? { ...s, ...patch } : s)))
  const setObjects = (objects: SlideObject[]) => setSlide({ objects })
  const say = (key: string, n: number) => setAnnounce(t(key, { n: String(n) }))

  return (
    <div className="slides-panel">
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
      <div className="slides-toolbar">
        <button
          type="button"
          className="btn"
          onClick={() => {
            onChange([...value.slice(0, index + 1), newSlide(), ...value.slice(index + 1)])
            setCurrent(value.length ? index + 1 : 0)
            say('lesson.slides.added', value.length ? index + 2 : 1)
          }}
        >
          <Icon name="plus" /> {t('lesson.slides.add')}
        </button>
        <span className="hint">{t('lesson.slides.empty_rule')}</span>
      </div>
      {value.length === 0 ? <p className="empty card">{t('lesson.slides.none')}</p> : null}
      <ol className="slide-thumbs" aria-label={t('lesson.slides.list')}>
        {value.map((s, i) => (
          <li key={s.id} className={`slide-thumb${i === index ? ' current' : ''}${slideHasContent(s) ? '' : ' slide-empty'}`}>
            <button type="button" className="slide-thumb-pick" aria-current={i === index ? 'true' : undefined} onClick={() => setCurrent(i)}>
              <SlideView slide={s} label={t('lesson.slides.slide_n', { n: String(i + 1) })} />
              <span>
                {t('lesson.slides.slide_n', { n: String(i + 1) })}
                {slideHasContent(s) ? '' : ` · ${t('lesson.slides.empty')}`}
              </span>
            </button>
            <div className="slide-thumb-actions">
              <button
                type="button"
                className="btn btn-icon"
                disabled={i === 0}
                onClick={() => (onChange(move(value, i, i - 1)), setCurrent(i - 1), say('lesson.slides.moved', i))}
              >
                <Icon name="arrowUp" label={t('lesson.slides.up', { n: String(i + 1) })} />
              </button>
              <button
                type="button"
                className="btn btn-icon"
                disabled={i === value.length - 1}
                onClick={() => (onChange(move(value, i, i + 1)), setCurrent(i + 1), say('lesson.slides.moved', i + 2))}
              >
                <Icon name="arrowDown" label={t('lesson.slides.down', { n: String(i + 1) })} />
              </button>
              <button
                type="button"
                className="btn btn-icon"
                onClick={() => {
                  const copy = { ...structuredClone(s), id: newId(), objects: s.objects.map((o) => ({ ...o, id: newId() })) }
                  onChange([...value.slice(0, i + 1), copy, ...value.slice(i + 1)])
                  setCurrent(i + 1)
                  say('lesson.slides.duplicated', i + 2)
                }}
              >
                <Icon name="copy" label={t('lesson.slides.duplicate', { n: String(i + 1) })} />
              </button>
              <button type="button" className="btn btn-icon" onClick={() => (onChange(value.filter((_, j) => j !== i)), say('lesson.slides.removed', i + 1))}>
                <Icon name="trash" label={t('lesson.slides.remove', { n: String(i + 1) })} />
              </button>
            </div>
          </li>
        ))}
      </ol>
      {slide ? (
        <section className="slide-detail card" aria-labelledby={`${id}-title`}>
          <h3 id={`${id}-title`}>{t('lesson.slides.slide_n', { n: String(index + 1) })}</h3>
          <div className="slide-detail-grid">
            <SlideView slide={slide} label={t('lesson.slides.preview_n', { n: String(index + 1) })} className="slide-large" />
            <div>
              <div className="field-row">
                <div className="field">
                  <label htmlFor={`${id}-bg`}>{t('lesson.slides.field.background')}</label>
                  <input
                    id={`${id}-bg`}
                    className="input"
                    type="color"
                    value={slide.background}
                    onChange={(e) => setSlide({ background: e.currentTarget.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-overlay`}>{t('lesson.slides.field.overlay')}</label>
                  <select
                    id={`${id}-overlay`}
                    className="input"
                    value={slide.overlay}
                    onChange={(e) => setSlide({ overlay: e.currentTarget.value as Slide['overlay'] })}
                  >
                    {OVERLAY_MODES.map((m) => (
                      <option key={m} value={m}>
                        {t(`lesson.overlay.${m}`)}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <div className="field">
                <label htmlFor={`${id}-narration`}>{t('lesson.slides.field.narration')}</label>
                <textarea
                  id={`${id}-narration`}
                  className="input"
                  rows={4}
                  value={slide.narration}
                  onChange={(e) => setSlide({ narration: e.currentTarget.value })}
                />
              </div>
            </div>
          </div>
          <h4>{t('lesson.slides.objects')}</h4>
          <ol className="slide-objects">
            {slide.objects.map((o, j) => (
              <li key={o.id} className="card">
                <div className="slide-object-head">
                  <strong>
                    {j + 1}. {t(`lesson.slides.kind.${o.kind}`)}
                  </strong>
                  <button type="button" className="btn btn-icon" disabled={j === 0} onClick={() => setObjects(move(slide.objects, j, j - 1))}>
                    <Icon name="arrowUp" label={t('lesson.slides.object_back', { n: String(j + 1) })} />
                  </button>
                  <button
                    type="button"
                    className="btn btn-icon"
                    disabled={j === slide.objects.length - 1}
                    onClick={() => setObjects(move(slide.objects, j, j + 1))}
                  >
                    <Icon name="arrowDown" label={t('lesson.slides.object_front', { n: String(j + 1) })} />
                  </button>
                  <button type="button" className="btn btn-icon" onClick={() => setObjects(slide.objects.filter((_, k) => k !== j))}>
                    <Icon name="trash" label={t('lesson.slides.object_remove', { n: String(j + 1) })} />
                  </button>
                </div>
                <ObjectForm o={o} set={(patch) => setObjects(slide.objects.map((x, k) => (k === j ? ({ ...x, ...patch } as SlideObject) : x)))} />
              </li>
            ))}
          </ol>
          <div className="slides-toolbar">
            {(['text', 'formula', 'shape', 'image', 'persona'] as const).map((kind) => (
              <button key={kind} type="button" className="btn" onClick={() => setObjects([...slide.objects, newObject(kind)])}>
                <Icon name="plus" /> {t(`lesson.slides.add_${kind}`)}
              </button>
            ))}
          </div>
        </section>
      ) : null}
    </div>
  )
}
