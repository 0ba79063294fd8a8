import type Konva from 'konva'
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import { Arrow, Ellipse, Group, Image as KonvaImage, Layer, Line, Rect, Stage, Text, Transformer } from 'react-konva'
import { useTranslation } from 'react-i18next'
import { FormulaEditor } from '~/components/formula-editor/formula-editor'
import { RichTextEditor } from '~/components/tms/rich-text-editor'
import { Dialog } from '~/components/ui/dialog'
import { UploadError, UploadProgress, uploadErrorOf } from '~/components/ui/file-upload'
import { Icon, type IconName } from '~/components/ui/icon'
import { uploadFile } from '~/lib/upload'
import { formulaProblem } from '#shared/rich-text'
import { PAGE_HEIGHT, PAGE_WIDTH, OVERLAY_MODES, slideHasContent, type Slide, type SlideDeck, type SlideObject } from '#shared/schemas/lesson/slide'
import type { ErrorItem } from '#shared/schemas/error'
import {
  SNAP_DISTANCE,
  commit,
  createObject,
  duplicateSlide,
  emptySlide,
  moveItem,
  moveLayer,
  nudge,
  nudgeDelta,
  pasteObjects,
  redo,
  removeObjects,
  snapBox,
  startHistory,
  undo,
  updateObject,
  updateSlide,
  type Guide,
  type History,
  type NewObject,
} from './deck'
import { objectSvg, slideSvg, svgDataUrl } from './render'
// The island brings its styles: its own and KaTeX's (palette buttons, previews), whatever route mounts it.
import 'katex/dist/katex.min.css'
import './slide-editor.css'

export interface SlideEditorProps {
  value: SlideDeck
  onChange: (deck: SlideDeck) => void
  /** The editor's accessible name (e.g. the lesson's title). */
  label?: string
  /**
   * Images the host screen offers from its assets (e.g. the lesson's image assets, loaded with its permissions): an
   * "image from the assets" list in the toolbar. The editor fetches nothing itself.
   */
  assets?: { name: string; url: string }[]
}

const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg']
const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3]
const SHAPES = ['rect', 'ellipse', 'line', 'arrow'] as const

/** An image for the canvas from an address (a data URL of an SVG, or an uploaded file). */
function useLoadedImage(src: string): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null)
  useEffect(() => {
    let live = true
    const img = new window.Image()
    img.onload = () => live && setImage(img)
    img.onerror = () => live && setImage(null)
    img.src = src
    return () => {
      live = false
    }
  }, [src])
  return image
}

/** Where a picture is drawn in its box: an image scaled to fit, centred (as the SVG's `xMidYMid meet`); the rest fill it. */
function fitted(o: SlideObject, image: HTMLImageElement) {
  if (o.kind !== 'image' || !image.naturalWidth || !image.naturalHeight) return { x: 0, y: 0, width: o.width, height: o.height }
  const scale = Math.min(o.width / image.naturalWidth, o.height / image.naturalHeight)
  const width = image.naturalWidth * scale
  const height = image.naturalHeight * scale
  return { x: (o.width - width) / 2, y: (o.height - height) / 2, width, height }
}

function PictureOf({ o }: { o: SlideObject }) {
  const src = useMemo(() => (o.kind === 'image' ? o.src : svgDataUrl(objectSvg(o))), [o])
  const image = useLoadedImage(src)
  return (
    <>
      {/* The box is hit and drawn while (and if) the picture loads: an empty text box stays selectable. */}
      <Rect width={o.width} height={o.height} fill={o.kind === 'image' && !image ? '#e5e7eb' : 'rgba(0,0,0,0)'} />
      {image ? <KonvaImage image={image} {...fitted(o, image)} listening={false} /> : null}
    </>
  )
}

function ObjectShape({ o, personaLabel }: { o: SlideObject; personaLabel: string }) {
  if (o.kind === 'shape') {
    const common = { stroke: o.stroke || undefined, strokeWidth: o.stroke ? o.stroke_width : 0, fill: o.fill || undefined, hitStrokeWidth: 40 }
    if (o.shape === 'rect') return <Rect width={o.width} height={o.height} {...common} />
    if (o.shape === 'ellipse') return <Ellipse x={o.width / 2} y={o.height / 2} radiusX={o.width / 2} radiusY={o.height / 2} {...common} />
    const points = [0, o.height / 2, o.width, o.height / 2]
    if (o.shape === 'arrow')
      return <Arrow points={points} pointerLength={o.stroke_width * 3} pointerWidth={o.stroke_width * 3} {...common} fill={o.stroke || undefined} />
    return <Line points={points} {...common} />
  }
  if (o.kind === 'persona') {
    return (
      <>
        <Rect width={o.width} height={o.height} fill="#ede9fe" stroke="#7c3aed" strokeWidth={10} dash={[40, 24]} />
        <Text
          text={personaLabel}
          width={o.width}
          height={o.height}
          align="center"
          verticalAlign="middle"
          fontSize={Math.min(120, o.width / 6)}
          fill="#5b21b6"
        />
      </>
    )
  }
  return <PictureOf o={o} />
}

const Thumbnail = memo(function Thumbnail({ slide }: { slide: Slide }) {
  const src = useMemo(() => svgDataUrl(slideSvg(slide)), [slide])
  return <img className="slide-thumb" src={src} alt="" width={176} height={Math.round((176 * PAGE_HEIGHT) / PAGE_WIDTH)} />
})

/**
 * The slide editor (issue 18): a canvas (konva, react-konva) per slide at the lesson's page size scaled to the view,
 * text boxes, formulas, images, shapes and the persona box; selection with transform handles, snapping with guides,
 * undo/redo, nudging, deletion, copy/paste, zoom; a slide list with thumbnails; and, outside the canvas, a layers panel
 * and property fields that do all of it by keyboard. A `.client` module loaded on demand by ./slide-editor.tsx.
 */
export function SlideEditor({ value, onChange, label, assets = [] }: SlideEditorProps) {
  const { t } = useTranslation()
  const id = useId()
  const [history, setHistory] = useState<History<SlideDeck>>(() => startHistory(value))
  const historyRef = useRef(history)
  const emitted = useRef(value)
  const [index, setIndex] = useState(0)
  const [selected, setSelected] = useState<string[]>([])
  const [zoom, setZoom] = useState(1)
  const [fit, setFit] = useState(0.2)
  const [guides, setGuides] = useState<Guide[]>([])
  const [formula, setFormula] = useState<{ id: string | null; latex: string } | null>(null)
  const [upload, setUpload] = useState<{ progress: number; replace: string | null } | null>(null)
  const [uploadError, setUploadError] = useState<ErrorItem | null>(null)
  const [announce, setAnnounce] = useState('')
  const clipboard = useRef<SlideObject[]>([])
  const fileInput = useRef<HTMLInputElement>(null)
  const replaceTarget = useRef<string | null>(null)
  const frame = useRef<HTMLDivElement>(null)
  const stage = useRef<Konva.Stage>(null)
  const transformer = useRef<Konva.Transformer>(null)

  // A new document from outside (another lesson loaded): a fresh history.
  useEffect(() => {
    if (value === emitted.current) return
    emitted.current = value
    const fresh = startHistory(value)
    historyRef.current = fresh
    setHistory(fresh)
    setSelected([])
    setIndex((i) => Math.min(i, Math.max(0, value.length - 1)))
  }, [value])

  const setHist = useCallback(
    (next: History<SlideDeck>) => {
      if (next === historyRef.current) return
      historyRef.current = next
      setHistory(next)
      emitted.current = next.present
      onChange(next.present)
    },
    [onChange],
  )
  const apply = useCallback((deck: SlideDeck, tag: string | null = null) => setHist(commit(historyRef.current, deck, tag)), [setHist])

  const deck = history.present
  const current = Math.min(index, Math.max(0, deck.length - 1))
  const slide = deck[current] as Slide | undefined
  const editSlide = (edit: (s: Slide) => Slide, tag: string | null = null) => slide && apply(updateSlide(historyRef.current.present, current, edit), tag)
  const selectedObjects = slide?.objects.filter((o) => selected.includes(o.id)) ?? []
  const single = selectedObjects.length === 1 ? selectedObjects[0] : null

  const hasSlide = slide !== undefined
  // The page fits the frame's width; zoom multiplies that.
  useEffect(() => {
    const el = frame.current
    if (!el) return
    const measure = () => setFit(Math.max(0.05, (el.clientWidth - 16) / PAGE_WIDTH))
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [hasSlide])
  const scale = fit * zoom

  // Transform handles on the selected, unlocked, visible objects.
  useEffect(() => {
    const tr = transformer.current
    const st = stage.current
    if (!tr || !st) return
    const nodes = selectedObjects.filter((o) => !o.locked && !o.hidden).flatMap((o) => st.findOne(`#${o.id}`) ?? [])
    tr.nodes(nodes)
    tr.getLayer()?.batchDraw()
  })

  const objectName = (o: SlideObject) => o.name || t(`slides.kind.${o.kind === 'shape' ? o.shape : o.kind}`)

  const add = (spec: NewObject) => {
    if (!slide) return
    const kind = spec.kind === 'shape' ? spec.shape : spec.kind
    const count = slide.objects.filter((o) => o.kind === spec.kind).length + 1
    const object = createObject(spec, `${t(`slides.kind.${kind}`)} ${count}`)
    editSlide((s) => ({ ...s, objects: [...s.objects, object] }))
    setSelected([object.id])
    setAnnounce(t('slides.added', { name: object.name }))
  }

  const remove = () => {
    if (!selectedObjects.length) return
    editSlide((s) => removeObjects(s, selected))
    setSelected(selectedObjects.filter((o) => o.locked).map((o) => o.id))
    setAnnounce(t('slides.deleted', { count: selectedObjects.filter((o) => !o.locked).length }))
  }
  const copy = () => {
    if (!selectedObjects.length) return
    clipboard.current = selectedObjects
    setAnnounce(t('slides.copied', { count: selectedObjects.length }))
  }
  const paste = () => {
    if (!slide || !clipboard.current.length) return
    const { slide: next, ids } = pasteObjects(slide, clipboard.current)
    editSlide(() => next)
    setSelected(ids)
    setAnnounce(t('slides.pasted', { count: ids.length }))
  }
  const doUndo = () => setHist(undo(historyRef.current))
  const doRedo = () => setHist(redo(historyRef.current))

  const onKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement
    // Fields, the rich-text box and dialogs keep their own keys (their own undo, arrows and Delete).
    if (target.closest('input, textarea, select, dialog, [contenteditable="true"], [role="tablist"]')) return
    const mod = e.ctrlKey || e.metaKey
    const key = e.key.toLowerCase()
    if (mod && key === 'z') {
      e.preventDefault()
      if (e.shiftKey) doRedo()
      else doUndo()
    } else if (mod && key === 'y') {
      e.preventDefault()
      doRedo()
    } else if (mod && key === 'c') {
      if (selectedObjects.length) e.preventDefault()
      copy()
    } else if (mod && key === 'v') {
      e.preventDefault()
      paste()
    } else if (!mod && (e.key === 'Delete' || e.key === 'Backspace')) {
      if (!selectedObjects.length) return
      e.preventDefault()
      remove()
    } else if (!mod && e.key === 'Escape') {
      setSelected([])
    } else {
      const delta = nudgeDelta(e.key, e.shiftKey)
      if (!delta || !selectedObjects.length || !slide) return
      e.preventDefault()
      editSlide((s) => nudge(s, selected, delta.dx, delta.dy))
    }
  }

  // The editor's shortcuts, for any focus inside it (canvas, layers, buttons): a listener on the section, which is a
  // region and not a control of its own; the latest handler is called.
  const keys = useRef(onKeyDown)
  keys.current = onKeyDown
  const root = useRef<HTMLElement>(null)
  useEffect(() => {
    const el = root.current
    if (!el) return
    const listener = (e: KeyboardEvent) => keys.current(e)
    el.addEventListener('keydown', listener)
    return () => el.removeEventListener('keydown', listener)
  }, [])

  /**
   * A click on the canvas selects, and moves the focus to the object's row in the layers panel (not scrolled to): the
   * keyboard then acts on it (arrows, Delete, copy), and a screen reader says which object it is.
   */
  const canvasSelect = (objectId: string, additive: boolean) => {
    select(objectId, additive)
    root.current?.querySelector<HTMLElement>(`[data-layer="${objectId}"]`)?.focus({ preventScroll: true })
  }
  /** A double click edits the content: the formula in its dialog, a text box's text in the side panel's editor. */
  const openEditor = (o: SlideObject) => {
    if (o.locked) return
    if (o.kind === 'formula') setFormula({ id: o.id, latex: o.latex })
    if (o.kind === 'text') requestAnimationFrame(() => root.current?.querySelector<HTMLElement>('.slide-panel [role="textbox"]')?.focus())
  }
  /** "Voice and image" shows the persona box: the slide gets one if it has none. */
  const setOverlay = (overlay: Slide['overlay']) => {
    if (!slide) return
    const box =
      overlay === 'voice_image' && !slide.objects.some((o) => o.kind === 'persona') ? createObject({ kind: 'persona' }, t('slides.kind.persona')) : null
    editSlide((s) => ({ ...s, overlay, objects: box ? [...s.objects, box] : s.objects }))
  }

  const select = (objectId: string, additive: boolean) => {
    setSelected((sel) => (additive ? (sel.includes(objectId) ? sel.filter((x) => x !== objectId) : [...sel, objectId]) : [objectId]))
  }

  const onDragMove = (o: SlideObject, node: Konva.Node) => {
    if (!slide) return
    const others = slide.objects.filter((x) => x.id !== o.id && !x.hidden && !selected.includes(x.id))
    const snapped = snapBox({ x: node.x(), y: node.y(), width: o.width, height: o.height }, others, Math.max(SNAP_DISTANCE, 8 / scale))
    node.position({ x: snapped.x, y: snapped.y })
    setGuides(snapped.guides)
  }
  const onDragEnd = (o: SlideObject, node: Konva.Node) => {
    setGuides([])
    // With several selected the transformer drags them all: every one's new place is one step.
    const moved = selected.includes(o.id) ? selected : [o.id]
    editSlide((s) =>
      moved.reduce((acc, objectId) => {
        const at = objectId === o.id ? node : stage.current?.findOne(`#${objectId}`)
        return at ? updateObject(acc, objectId, { x: Math.round(at.x()), y: Math.round(at.y()) }) : acc
      }, s),
    )
  }
  const onTransformEnd = (o: SlideObject, node: Konva.Node) => {
    const width = Math.max(1, Math.round(o.width * node.scaleX()))
    const height = Math.max(1, Math.round(o.height * node.scaleY()))
    node.scale({ x: 1, y: 1 })
    const rotation = Math.round(((((node.rotation() + 180) % 360) + 360) % 360) - 180)
    editSlide((s) => updateObject(s, o.id, { x: Math.round(node.x()), y: Math.round(node.y()), width, height, rotation }))
  }

  async function onFile(files: FileList | null) {
    const file = files?.[0]
    if (!file) return
    const replace = replaceTarget.current
    setUploadError(null)
    setUpload({ progress: 0, replace })
    try {
      const stored = await uploadFile(file, { accept: IMAGE_TYPES, persist: true }, (progress) => setUpload({ progress, replace }))
      if (replace) editSlide((s) => updateObject(s, replace, { src: stored.cdn_full_url }))
      else add({ kind: 'image', src: stored.cdn_full_url, alt: file.name.slice(0, 300) })
    } catch (err) {
      setUploadError(uploadErrorOf(err))
    } finally {
      setUpload(null)
      if (fileInput.current) fileInput.current.value = ''
    }
  }
  const pickImage = (replace: string | null) => {
    replaceTarget.current = replace
    fileInput.current?.click()
  }

  const saveFormula = () => {
    if (!formula) return
    const latex = formula.latex.trim()
    if (formula.id) {
      const target = formula.id
      editSlide((s) => updateObject(s, target, { latex }))
    } else add({ kind: 'formula', latex })
    setFormula(null)
  }

  const empties = deck.filter((s) => !slideHasContent(s)).length

  const tool = (icon: IconName, text: string, run: () => void, disabled = false, pressed?: boolean) => (
    <button type="button" className="btn btn-icon" title={text} aria-pressed={pressed} disabled={disabled} onClick={run}>
      <Icon name={icon} label={text} size={18} />
    </button>
  )
  const textTool = (text: string, run: () => void, disabled = false) => (
    <button type="button" className="btn btn-small" disabled={disabled} onClick={run}>
      {text}
    </button>
  )

  return (
    <section ref={root} className="slide-editor" aria-label={label ?? t('slides.editor')}>
      <div className="slide-editor-toolbar" role="toolbar" aria-label={t('slides.toolbar')}>
        <div className="slide-editor-tools" role="group" aria-label={t('slides.insert')}>
          {textTool(t('slides.add.text'), () => add({ kind: 'text' }), !slide)}
          {textTool(t('slides.add.formula'), () => setFormula({ id: null, latex: '' }), !slide)}
          {textTool(t('slides.add.image'), () => pickImage(null), !slide || upload !== null)}
          {assets.length ? (
            <>
              <label className="visually-hidden" htmlFor={`${id}-asset`}>
                {t('slides.add.asset')}
              </label>
              <select
                id={`${id}-asset`}
                className="input input-small"
                value=""
                disabled={!slide}
                onChange={(e) => {
                  const asset = assets[Number(e.currentTarget.value)]
                  if (asset) add({ kind: 'image', src: asset.url, alt: asset.name.slice(0, 300) })
                }}
              >
                <option value="">{t('slides.add.asset')}</option>
                {assets.map((a, i) => (
                  <option key={`${i}-${a.url}`} value={i}>
                    {a.name}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          {SHAPES.map((shape) => (
            <span key={shape}>{textTool(t(`slides.kind.${shape}`), () => add({ kind: 'shape', shape }), !slide)}</span>
          ))}
          {textTool(t('slides.add.persona'), () => add({ kind: 'persona' }), !slide || slide.objects.some((o) => o.kind === 'persona'))}
        </div>
        <div className="slide-editor-tools" role="group" aria-label={t('slides.edit')}>
          {tool('restore', t('slides.undo'), doUndo, !history.past.length)}
          {tool('refresh', t('slides.redo'), doRedo, !history.future.length)}
          {tool('copy', t('slides.copy'), copy, !selectedObjects.length)}
          {textTool(t('slides.paste'), paste, !slide)}
          {tool('trash', t('slides.delete'), remove, !selectedObjects.some((o) => !o.locked))}
        </div>
        <div className="slide-editor-tools" role="group" aria-label={t('slides.zoom')}>
          {textTool('−', () => setZoom((z) => ZOOMS[Math.max(0, ZOOMS.indexOf(z) - 1)]), zoom === ZOOMS[0])}
          <label className="visually-hidden" htmlFor={`${id}-zoom`}>
            {t('slides.zoom')}
          </label>
          <select id={`${id}-zoom`} className="input input-small" value={zoom} onChange={(e) => setZoom(Number(e.currentTarget.value))}>
            {ZOOMS.map((z) => (
              <option key={z} value={z}>
                {z === 1 ? t('slides.zoom_fit') : `${Math.round(z * 100)}%`}
              </option>
            ))}
          </select>
          {textTool('+', () => setZoom((z) => ZOOMS[Math.min(ZOOMS.length - 1, ZOOMS.indexOf(z) + 1)]), zoom === ZOOMS[ZOOMS.length - 1])}
        </div>
      </div>
      <input ref={fileInput} type="file" hidden accept={IMAGE_TYPES.map((e) => `.${e}`).join(',')} onChange={(e) => void onFile(e.currentTarget.files)} />
      {upload ? <UploadProgress progress={upload.progress} /> : null}
      {uploadError ? <UploadError error={uploadError} /> : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>

      <div className="slide-editor-body">
        <nav className="slide-list" aria-label={t('slides.list')}>
          <ol>
            {deck.map((s, i) => (
              <li key={s.id} className={i === current ? 'current' : undefined}>
                <button
                  type="button"
                  className="slide-list-pick"
                  aria-current={i === current ? 'true' : undefined}
                  onClick={() => {
                    setIndex(i)
                    setSelected([])
                  }}
                >
                  <Thumbnail slide={s} />
                  <span>
                    {t('slides.slide_n', { n: i + 1 })}
                    {slideHasContent(s) ? '' : ` · ${t('slides.empty')}`}
                  </span>
                </button>
                <div className="slide-list-actions" role="group" aria-label={t('slides.slide_actions', { n: i + 1 })}>
                  {tool('arrowUp', t('slides.move_up'), () => (apply(moveItem(deck, i, -1)), setIndex(i - 1)), i === 0)}
                  {tool('arrowDown', t('slides.move_down'), () => (apply(moveItem(deck, i, 1)), setIndex(i + 1)), i === deck.length - 1)}
                  {tool('copy', t('slides.duplicate'), () => (apply(duplicateSlide(deck, i)), setIndex(i + 1)), deck.length >= 200)}
                  {tool('trash', t('slides.delete_slide'), () => (apply(deck.filter((_, j) => j !== i)), setIndex(Math.max(0, i - 1)), setSelected([])))}
                </div>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="btn"
            disabled={deck.length >= 200}
            onClick={() => {
              apply([...deck.slice(0, current + 1), emptySlide(), ...deck.slice(current + 1)])
              setIndex(deck.length ? current + 1 : 0)
              setSelected([])
            }}
          >
            <Icon name="plus" size={16} /> {t('slides.add_slide')}
          </button>
          {empties ? <p className="hint">{t('slides.empties_removed', { count: empties })}</p> : null}
        </nav>

        <div className="slide-canvas-frame" ref={frame}>
          {slide ? (
            <div className="slide-canvas" role="img" aria-label={t('slides.canvas', { n: current + 1, count: slide.objects.length })}>
              <Stage
                ref={stage}
                width={Math.round(PAGE_WIDTH * scale)}
                height={Math.round(PAGE_HEIGHT * scale)}
                scaleX={scale}
                scaleY={scale}
                onMouseDown={(e) => {
                  if (e.target === e.target.getStage() || e.target.name() === 'page') setSelected([])
                }}
              >
                <Layer>
                  <Rect name="page" width={PAGE_WIDTH} height={PAGE_HEIGHT} fill={slide.background} />
                  {slide.objects.map((o) => (
                    <Group
                      key={o.id}
                      id={o.id}
                      name="object"
                      x={o.x}
                      y={o.y}
                      rotation={o.rotation}
                      opacity={o.opacity}
                      visible={!o.hidden}
                      draggable={!o.locked}
                      onMouseDown={(e) => {
                        // No focus change by the browser: canvasSelect puts the focus on the layer's row.
                        e.evt.preventDefault()
                        canvasSelect(o.id, e.evt.shiftKey)
                      }}
                      onTap={() => canvasSelect(o.id, false)}
                      onDblClick={() => openEditor(o)}
                      onDblTap={() => openEditor(o)}
                      onDragStart={() => !selected.includes(o.id) && setSelected([o.id])}
                      onDragMove={(e) => onDragMove(o, e.target)}
                      onDragEnd={(e) => onDragEnd(o, e.target)}
                      onTransformEnd={(e) => onTransformEnd(o, e.target)}
                    >
                      <ObjectShape o={o} personaLabel={t('slides.kind.persona')} />
                    </Group>
                  ))}
                  {guides.map((g, i) => (
                    <Line
                      key={i}
                      listening={false}
                      points={
                        g.orientation === 'vertical'
                          ? [g.position, -PAGE_HEIGHT, g.position, 2 * PAGE_HEIGHT]
                          : [-PAGE_WIDTH, g.position, 2 * PAGE_WIDTH, g.position]
                      }
                      stroke="#db2777"
                      strokeWidth={2 / scale}
                      dash={[8 / scale, 6 / scale]}
                    />
                  ))}
                  <Transformer ref={transformer} rotationSnaps={[0, 90, 180, 270]} flipEnabled={false} ignoreStroke />
                </Layer>
              </Stage>
            </div>
          ) : (
            <div className="empty-state">
              <p>{t('slides.no_slides')}</p>
            </div>
          )}
        </div>

        <aside className="slide-panels">
          {slide ? (
            <>
              <Panel title={t('slides.layers')}>
                {slide.objects.length ? (
                  <ol className="layer-list" aria-label={t('slides.layers')}>
                    {[...slide.objects].reverse().map((o, k) => {
                      const i = slide.objects.length - 1 - k
                      return (
                        <li key={o.id} className={selected.includes(o.id) ? 'selected' : undefined}>
                          <button
                            type="button"
                            className="layer-pick"
                            data-layer={o.id}
                            aria-pressed={selected.includes(o.id)}
                            onClick={(e) => select(o.id, e.shiftKey)}
                          >
                            {objectName(o)}
                          </button>
                          {tool(
                            'arrowUp',
                            t('slides.layer.forward', { name: objectName(o) }),
                            () => editSlide((s) => moveLayer(s, o.id, 'forward')),
                            i === slide.objects.length - 1,
                          )}
                          {tool(
                            'arrowDown',
                            t('slides.layer.backward', { name: objectName(o) }),
                            () => editSlide((s) => moveLayer(s, o.id, 'backward')),
                            i === 0,
                          )}
                          {tool(
                            o.hidden ? 'eyeOff' : 'eye',
                            t('slides.layer.hide', { name: objectName(o) }),
                            () => editSlide((s) => updateObject(s, o.id, { hidden: !o.hidden })),
                            false,
                            o.hidden,
                          )}
                          {tool(
                            'pin',
                            t('slides.layer.lock', { name: objectName(o) }),
                            () => editSlide((s) => updateObject(s, o.id, { locked: !o.locked })),
                            false,
                            o.locked,
                          )}
                        </li>
                      )
                    })}
                  </ol>
                ) : (
                  <p className="hint">{t('slides.no_objects')}</p>
                )}
              </Panel>
              {single ? (
                <ObjectFields
                  key={single.id}
                  o={single}
                  onEdit={(patch, tag) => editSlide((s) => updateObject(s, single.id, patch), tag ? `${tag}:${single.id}` : null)}
                  onEditFormula={() => single.kind === 'formula' && setFormula({ id: single.id, latex: single.latex })}
                  onReplaceImage={() => pickImage(single.id)}
                />
              ) : selectedObjects.length > 1 ? (
                <p className="hint">{t('slides.many_selected', { count: selectedObjects.length })}</p>
              ) : null}
              <Panel title={t('slides.slide_n', { n: current + 1 })}>
                <ColorField
                  label={t('slides.field.background')}
                  value={slide.background}
                  onChange={(background) => editSlide((s) => ({ ...s, background }), 'background')}
                />
                <div className="field">
                  <label htmlFor={`${id}-overlay`}>{t('slides.field.overlay')}</label>
                  <select id={`${id}-overlay`} className="input" value={slide.overlay} onChange={(e) => setOverlay(e.currentTarget.value as Slide['overlay'])}>
                    {OVERLAY_MODES.map((m) => (
                      <option key={m} value={m}>
                        {t(`slides.overlay.${m}`)}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`${id}-narration`}>{t('slides.field.narration')}</label>
                  <textarea
                    id={`${id}-narration`}
                    className="input"
                    rows={4}
                    maxLength={5000}
                    value={slide.narration}
                    onChange={(e) => editSlide((s) => ({ ...s, narration: e.currentTarget.value }), `narration:${slide.id}`)}
                  />
                </div>
              </Panel>
            </>
          ) : null}
        </aside>
      </div>

      <FormulaDialog value={formula} onChange={(latex) => setFormula((f) => f && { ...f, latex })} onClose={() => setFormula(null)} onSave={saveFormula} />
    </section>
  )
}

function FormulaDialog({
  value,
  onChange,
  onClose,
  onSave,
}: {
  value: { id: string | null; latex: string } | null
  onChange: (latex: string) => void
  onClose: () => void
  onSave: () => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const latex = value?.latex ?? ''
  const invalid = !latex.trim() || latex.length > 2000 || formulaProblem(latex) !== null
  return (
    <Dialog
      open={value !== null}
      onClose={onClose}
      title={t(value?.id ? 'slides.formula.edit' : 'slides.add.formula')}
      labelledBy={`${id}-title`}
      className="dialog-wide"
    >
      {value ? <FormulaEditor label={t('richtext.formula.latex')} value={latex} onChange={onChange} /> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('settings.cancel')}
        </button>
        <button type="button" className="btn btn-primary" disabled={invalid} onClick={onSave}>
          {t(value?.id ? 'slides.formula.apply' : 'slides.formula.place')}
        </button>
      </div>
    </Dialog>
  )
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <section className="slide-panel" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  )
}

/** A number field that commits only valid numbers (a field being retyped keeps its draft until it is one). */
function NumberField({
  label,
  value,
  min,
  max,
  step = 1,
  onChange,
}: {
  label: string
  value: number
  min: number
  max: number
  step?: number
  onChange: (n: number) => void
}) {
  const id = useId()
  const [draft, setDraft] = useState<string | null>(null)
  const shown = draft ?? String(value)
  return (
    <div className="field field-number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={shown}
        aria-invalid={draft !== null && !(Number(draft) >= min && Number(draft) <= max) ? true : undefined}
        onChange={(e) => {
          const text = e.currentTarget.value
          setDraft(text)
          const n = Number(text)
          if (text.trim() !== '' && Number.isFinite(n) && n >= min && n <= max) onChange(n)
        }}
        onBlur={() => setDraft(null)}
      />
    </div>
  )
}

function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (c: string) => void }) {
  const id = useId()
  return (
    <div className="field field-color">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="color" className="input" value={value} onChange={(e) => onChange(e.currentTarget.value.toLowerCase())} />
    </div>
  )
}

function ObjectFields({
  o,
  onEdit,
  onEditFormula,
  onReplaceImage,
}: {
  o: SlideObject
  onEdit: (patch: Partial<SlideObject>, tag?: string) => void
  onEditFormula: () => void
  onReplaceImage: () => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const num = (field: 'x' | 'y' | 'width' | 'height' | 'rotation', min: number, max: number) => (
    <NumberField label={t(`slides.field.${field}`)} value={o[field]} min={min} max={max} onChange={(n) => onEdit({ [field]: Math.round(n) }, field)} />
  )
  return (
    <section className="slide-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('slides.properties', { name: o.name || t(`slides.kind.${o.kind === 'shape' ? o.shape : o.kind}`) })}</h3>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('slides.field.name')}</label>
        <input id={`${id}-name`} className="input" maxLength={80} value={o.name} onChange={(e) => onEdit({ name: e.currentTarget.value }, 'name')} />
      </div>
      <div className="slide-fields-grid">
        {num('x', -PAGE_WIDTH, 2 * PAGE_WIDTH)}
        {num('y', -PAGE_WIDTH, 2 * PAGE_WIDTH)}
        {num('width', 1, 2 * PAGE_WIDTH)}
        {num('height', 1, 2 * PAGE_WIDTH)}
        {num('rotation', -360, 360)}
        <NumberField label={t('slides.field.opacity')} value={o.opacity} min={0} max={1} step={0.05} onChange={(n) => onEdit({ opacity: n }, 'opacity')} />
      </div>
      {o.kind === 'text' ? (
        <>
          <RichTextEditor label={t('slides.field.text')} value={o.html} onChange={(html) => onEdit({ html }, 'html')} />
          <div className="slide-fields-grid">
            <NumberField label={t('slides.field.font_size')} value={o.font_size} min={8} max={600} onChange={(n) => onEdit({ font_size: n }, 'font_size')} />
            <ColorField label={t('slides.field.color')} value={o.color} onChange={(color) => onEdit({ color }, 'color')} />
            <div className="field">
              <label htmlFor={`${id}-align`}>{t('slides.field.align')}</label>
              <select
                id={`${id}-align`}
                className="input"
                value={o.align}
                onChange={(e) => onEdit({ align: e.currentTarget.value as 'left' | 'center' | 'right' })}
              >
                {(['left', 'center', 'right'] as const).map((a) => (
                  <option key={a} value={a}>
                    {t(`slides.align.${a}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </>
      ) : null}
      {o.kind === 'formula' ? (
        <>
          <p>
            <code>{o.latex}</code>
          </p>
          <button type="button" className="btn btn-small" onClick={onEditFormula}>
            {t('slides.formula.edit')}
          </button>
          <ColorField label={t('slides.field.color')} value={o.color} onChange={(color) => onEdit({ color }, 'color')} />
        </>
      ) : null}
      {o.kind === 'image' ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-src`}>{t('slides.field.src')}</label>
            <input
              id={`${id}-src`}
              className="input"
              maxLength={2000}
              value={o.src}
              onChange={(e) => e.currentTarget.value.trim() && onEdit({ src: e.currentTarget.value }, 'src')}
            />
          </div>
          <button type="button" className="btn btn-small" onClick={onReplaceImage}>
            {t('slides.replace_image')}
          </button>
          <div className="field">
            <label htmlFor={`${id}-alt`}>{t('slides.field.alt')}</label>
            <input id={`${id}-alt`} className="input" maxLength={300} value={o.alt} onChange={(e) => onEdit({ alt: e.currentTarget.value }, 'alt')} />
          </div>
        </>
      ) : null}
      {o.kind === 'shape' ? (
        <div className="slide-fields-grid">
          <div className="field">
            <label htmlFor={`${id}-shape`}>{t('slides.field.shape')}</label>
            <select id={`${id}-shape`} className="input" value={o.shape} onChange={(e) => onEdit({ shape: e.currentTarget.value as (typeof SHAPES)[number] })}>
              {SHAPES.map((s) => (
                <option key={s} value={s}>
                  {t(`slides.kind.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <ColorField label={t('slides.field.fill')} value={o.fill || '#ffffff'} onChange={(fill) => onEdit({ fill }, 'fill')} />
          <label className="switch">
            <input type="checkbox" checked={o.fill === ''} onChange={(e) => onEdit({ fill: e.currentTarget.checked ? '' : '#dbeafe' })} />{' '}
            {t('slides.field.no_fill')}
          </label>
          <ColorField label={t('slides.field.stroke')} value={o.stroke || '#000000'} onChange={(stroke) => onEdit({ stroke }, 'stroke')} />
          <NumberField
            label={t('slides.field.stroke_width')}
            value={o.stroke_width}
            min={0}
            max={200}
            onChange={(n) => onEdit({ stroke_width: n }, 'stroke_width')}
          />
        </div>
      ) : null}
      <div className="option-list inline">
        <label className="switch">
          <input type="checkbox" checked={o.hidden} onChange={(e) => onEdit({ hidden: e.currentTarget.checked })} /> {t('slides.field.hidden')}
        </label>
        <label className="switch">
          <input type="checkbox" checked={o.locked} onChange={(e) => onEdit({ locked: e.currentTarget.checked })} /> {t('slides.field.locked')}
        </label>
      </div>
    </section>
  )
}
